"""Programs of format version 3 (PROTOCOL-3.md, 3.1), written from the text.

Format 3 is format 2 (PROTOCOL.md part 1) with the version byte 3 and one more validation rule,
(f) closed loops (error 31), which makes a seek's cost depend on the program's instructions and
not on its ticks (PROTOCOL-3.md 3.5). This module reuses the v2 reference (../programs/reference.py)
for decoding, the rules (a)-(e) and the loop expansion, and adds:
- `validate3`: the header with version 3, rules 1-30, then rule (f);
- `peak`: the most instructions one program tick executes (restart included), the work figure a
  device admits plays with (PROTOCOL-3.md 3.9);
- `slow_state` / `fast_state`: the interpreter state about to output program tick k, by executing
  every instruction before k (the definition) and by the instruction-bounded method of 3.5 with
  its cost in executions.
Plain Python, no speed concerns.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "programs"))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.append(os.path.join(HERE, "..", "device"))  # last: its generate.py is not the one wanted
import device as dv  # noqa: E402  (v2 reference: the interpreter's instruction rule)
import reference as ref  # noqa: E402

FORMAT_VERSION = 3
LOOP_NOT_CLOSED = 31  # rule (f)
PULSE_MAX = 20        # the longest pulse (sharp 0), 1.10


def parse_header3(program, cfg):
    """Header rules 1-5 with version 3 (rule 3: version != 3 is error 3)."""
    if len(program) >= 3 and program[0:2] == b"HP" and program[2] == FORMAT_VERSION:
        return ref.parse_header(program[:2] + bytes([ref.FORMAT_VERSION]) + program[3:], cfg)
    if len(program) >= 3 and program[0:2] == b"HP":
        raise ref.Reject("BAD_VERSION")
    return ref.parse_header(program, cfg)  # rules 1-2 as in v2


def validate3(program, cfg, closed=True):
    """Returns (header, instructions); raises ref.Reject (code 1-30) or Reject3 (31). With
    closed=False, rule (f) is not checked: a device without SEEK (capability bit 9, 3.13)."""
    parse_header3(program, cfg)
    v2 = bytes(program[:2]) + bytes([ref.FORMAT_VERSION]) + bytes(program[3:])
    header, instructions = ref.validate(v2, cfg)
    if closed:
        check_closed(instructions)
    return header, instructions


class Reject3(ref.Reject):
    def __init__(self):
        Exception.__init__(self, "LOOP_NOT_CLOSED")
        self.code = LOOP_NOT_CLOSED


loop_tree = ref.loop_tree  # [("ins", ins) or ("loop", LOOP, body, ENDLOOP)], END included


expand = ref.expand  # executions with loops expanded; loops=True adds the LOOP and ENDLOOP executions


def iteration(body, endloop):
    """One iteration of a loop body expanded: ([(relative time, ins)], P)."""
    out, t = expand(body)
    return out, t + endloop["delay"]


def check_closed(instructions):
    """Rule (f): in one expanded iteration of every loop, the last instruction on each amplitude or
    sharpness channel the body touches ends by the iteration's end (SET, or RAMP with relative time +
    duration <= P), and every PULSE ends by it (relative time + length <= P)."""
    def walk(nodes):
        for node in nodes:
            if node[0] != "loop":
                continue
            _, _, body, endloop = node
            walk(body)
            timed, period = iteration(body, endloop)
            last = {}
            for t, ins in timed:
                op = ins["op"]
                if op in ("SET_A", "RAMP_A"):
                    last["A"] = (t, ins)
                elif op in ("SET_S", "RAMP_S"):
                    last["S"] = (t, ins)
                elif op == "PULSE" and t + ref.pulse_length(ins["sharp"]) > period:
                    raise Reject3()
            for t, ins in last.values():
                if ins["op"].startswith("RAMP") and t + ins["dur"] > period:
                    raise Reject3()
    walk(loop_tree(instructions))


def executions(instructions):
    """Every execution in order, LOOP and ENDLOOP included: [(time, ins)]."""
    return expand(loop_tree(instructions), loops=True)[0]


def check_closed_one_pass(instructions):
    """Rule (f) as PROTOCOL-3.md 3.1 tells a validator to check it: one pass in byte order, for each
    open loop the relative ends of its last A and S instructions and its largest pulse end, an inner
    loop's values moved to the enclosing loop at its ENDLOOP. Returns True when closed (the property
    checks compare it with check_closed on random programs)."""
    t, stack = 0, []  # entries: [start, count, end_a, end_s, end_pulse]
    for ins in instructions:
        t += ins["delay"]
        op = ins["op"]
        if not stack:
            if op == "LOOP":
                stack.append([t, ins["value"], None, None, None])
            continue
        top = stack[-1]
        rel = t - top[0]
        if op in ("SET_A", "RAMP_A"):
            top[2] = rel + (ins["dur"] if op == "RAMP_A" else 0)
        elif op in ("SET_S", "RAMP_S"):
            top[3] = rel + (ins["dur"] if op == "RAMP_S" else 0)
        elif op == "PULSE":
            end = rel + ref.pulse_length(ins["sharp"])
            top[4] = end if top[4] is None else max(top[4], end)
        elif op == "LOOP":
            stack.append([t, ins["value"], None, None, None])
        elif op == "ENDLOOP":
            start, count, end_a, end_s, end_p = stack.pop()
            period = t - start
            if any(v is not None and v > period for v in (end_a, end_s, end_p)):
                return False
            t = start + period * count
            if stack:
                outer = stack[-1]
                shift = start - outer[0] + (count - 1) * period
                for i, v in ((2, end_a), (3, end_s)):
                    if v is not None:
                        outer[i] = v + shift
                if end_p is not None:
                    moved = end_p + shift
                    outer[4] = moved if outer[4] is None else max(outer[4], moved)
    return True


def peak(instructions):
    """The most instructions one program tick executes: max over ticks of the timeline's count,
    and the restart tick of a looped play (the run ending at END, then tick 0's), if T > 0."""
    plan = executions(instructions)
    counts = {}
    for t, _ in plan:
        counts[t] = counts.get(t, 0) + 1
    total = plan[-1][0]
    best = max(counts.values())
    if total > 0:
        best = max(best, counts[total] + counts.get(0, 0))
    return best


# ---- interpreter state at a program tick ----

class State:
    """What a player's interpreter holds between ticks (PROTOCOL-3.md 3.5): both channels as closed-form
    segments (v0, v1, t0, D), the pulse voices (start, length, amp, sharp) oldest first, and `idx`, how
    many timeline entries have executed (the read position and loop stack, in the expanded form)."""

    def __init__(self):
        self.seg_a, self.seg_s, self.voices, self.idx = (0, 0, 0, 0), (0, 0, 0, 0), [], 0

    def key(self, k):
        """The observable state at program tick k: channel values and running ramps from k on, live voices."""
        def seg(s):
            v0, v1, t0, d = s
            return (v1, v1, 0, 0) if d == 0 or k - t0 >= d else s
        return (seg(self.seg_a), seg(self.seg_s),
                tuple(v for v in self.voices if v[0] + v[1] > k), self.idx)

    # Executes one SET/RAMP/PULSE at program tick n: the v2 interpreter's rule, on the same fields.
    execute = dv.Interp.execute

    def sample(self, n, sharp_flag):
        """The program's own sample at tick n (1.11's combine; no live controls): (amp, sharp)."""
        amp, sharp = ref.ramp_value(self.seg_a, n), ref.ramp_value(self.seg_s, n)
        for (start, length, pamp, psharp) in self.voices:
            if start <= n < start + length and pamp >= amp:
                amp, sharp = pamp, psharp
        if not sharp_flag:
            sharp = 0
        return amp, sharp


def slow_state(plan, k):
    """The definition: every timeline entry with time < k executed, in order."""
    st = State()
    while st.idx < len(plan) and plan[st.idx][0] < k:
        st.execute(plan[st.idx][1], plan[st.idx][0])
        st.idx += 1
    return st


def fast_state(instructions, k):
    """The method of PROTOCOL-3.md 3.5: walks the loop tree executing instructions with time < k; a
    loop with more than its first max(1, ceil(20 / P)) whole iterations before k skips the rest of its
    whole iterations at once (rule (f) makes the state at those boundaries the same). Returns
    (State, executions): the executions counted are the instructions executed, skipped delays and
    iterations cost nothing."""
    st, cost = State(), [0]
    plan_len = [0]  # timeline entries passed (executed or skipped), for State.idx

    def count(nodes):
        """Timeline entries of nodes, loops expanded (for the read position)."""
        total = 0
        for node in nodes:
            if node[0] == "ins":
                total += 1
            else:
                total += node[1]["value"] * count(node[2])
        return total

    def run(nodes, t):
        """Executes nodes from time t; returns (time after them, finished) with finished False when
        k was reached inside (the walk stops there)."""
        for node in nodes:
            if node[0] == "ins":
                ins = node[1]
                t += ins["delay"]
                if t >= k:
                    return t, False
                st.execute(ins, t)
                cost[0] += 1
                plan_len[0] += 1
                continue
            _, loop, body, endloop = node
            t += loop["delay"]
            if t >= k:
                return t, False
            cost[0] += 1
            _, period = iteration(body, endloop)
            settle = max(1, -(-PULSE_MAX // period))
            per_iteration = count(body)
            i = 0
            while i < loop["value"]:
                if i == settle:
                    # iterations i .. whole-1 lie wholly before k (their ENDLOOP too)
                    whole = i + min(loop["value"] - i, (k - t - 1) // period)
                    if whole > i:  # skip iterations i .. whole-1: same state at their boundaries
                        t += (whole - i) * period
                        plan_len[0] += (whole - i) * per_iteration
                        i = whole
                        if i == loop["value"]:
                            break
                t, done = run(body, t)
                if not done:
                    return t, False
                t += endloop["delay"]
                if t >= k:
                    return t, False
                cost[0] += 1
                i += 1
        return t, True

    run(loop_tree(instructions), 0)
    st.idx = plan_len[0]
    return st, cost[0]


def seek_cost_bound(instructions):
    """PROTOCOL-3.md 3.5's bound on fast_state's executions for any k: each loop executes at most
    settle + 1 iterations of its body (settle = max(1, ceil(20 / P))), plus its LOOP and ENDLOOPs."""
    def bound(nodes):
        total = 0
        for node in nodes:
            if node[0] == "ins":
                total += 1
            else:
                _, loop, body, endloop = node
                _, period = iteration(body, endloop)
                settle = max(1, -(-PULSE_MAX // period))
                runs = min(loop["value"], settle + 1)
                total += 1 + runs * (bound(body) + 1)
        return total
    return bound(loop_tree(instructions))
