"""Property checks of the protocol 3 reference (PROTOCOL-3.md), each against the rule's own text.

Run: python3 firmware-protocol/vectors/v3/test_properties.py (or with pytest; make -C
firmware-protocol/vectors/v3 check also checks the committed vectors)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import player3 as pl  # noqa: E402
import program3 as p3  # noqa: E402
import session3 as s3  # noqa: E402
from program3 import ref  # noqa: E402

ENVELOPE = s3.prog([("RAMP_A", 0, 250, 40), ("RAMP_S", 0, 200, 30), ("PULSE", 17, 180, 40),
                    ("RAMP_A", 23, 30, 60), ("SET_S", 10, 90), ("RAMP_A", 50, 0, 20), ("END", 25)])
LOOPED = s3.prog([("SET_S", 0, 60), ("LOOP", 2, 40), ("RAMP_A", 0, 200, 3), ("PULSE", 2, 255, 200),
                  ("RAMP_A", 4, 0, 3), ("ENDLOOP", 9), ("RAMP_A", 5, 90, 100), ("END", 120)])
BRAKE = 20


def solo(program, ticks, channels=1, **play_kw):
    s = s3.Session(channels=channels, players=4, channel_cfg=[{} for _ in range(channels)], watchdog=0)
    s.upload(0, program)
    s.command("PLAY", s3.play(1, 1, 0, **play_kw))
    s.run(ticks)
    return s


def faded(amp, gain):
    """An amplitude at scale 255 (m' = 256) under gain G (3.6's amp_i)."""
    return (amp * 256 * gain + 32768) >> 16


def total(program):
    return int.from_bytes(program[10:14], "little")


def test_fast_seek_equals_the_definition_and_its_bound():
    rng = s3.rng(3)
    for _ in range(150):
        program, _ = s3.random_closed_program(rng)
        _, instructions = p3.validate3(program, ref.Config())
        plan, t_end = ref.timeline(instructions), total(program)
        bound = p3.seek_cost_bound(instructions)
        for k in range(0, t_end + 1, max(1, t_end // 60)):
            fast, cost = p3.fast_state(instructions, k)
            assert fast.key(k) == p3.slow_state(plan, k).key(k), (program.hex(), k)
            assert cost <= bound


def test_seek_then_play_equals_play_with_the_first_k_ticks_dropped():
    for program in (ENVELOPE, LOOPED):
        t_end = total(program)
        base = solo(program, t_end + BRAKE + 5).channel(0)
        for k in (1, 7, 17, 40, 41, 100, t_end - 1):
            if k >= t_end:
                continue
            out = solo(program, t_end - k + BRAKE + 5, start=k).channel(0)
            assert out == base[k:k + len(out)], k


def test_seek_while_playing_fades_out_the_held_sample_and_in_from_k():
    fade, t, k = 8, 30, 100
    base = solo(LOOPED, 400).channel(0)
    s = solo(LOOPED, t)
    s.command("CONTROL", s3.control(1, 1, "SEEK", k))
    s.run(300)
    out, step = s.channel(0), pl.fade_step(fade)
    held = base[t - 1]
    assert out[:t] == base[:t]
    for i in range(fade):
        g = max(0, 256 - step * (i + 1))
        assert out[t + i][0] == faded(held[0], g)
    for j in range(40):
        g = min(256, step * (j + 1))
        assert out[t + fade + j][0] == faded(base[k + j][0], g)


def test_pause_for_d_then_resume_is_the_same_output_shifted_by_d_with_the_fades():
    fade, t, d = 8, 25, 37
    base = solo(ENVELOPE, 300).channel(0)
    s = solo(ENVELOPE, t)
    s.command("CONTROL", s3.control(1, 1, "PAUSE"))
    s.run(d)
    s.command("CONTROL", s3.control(1, 1, "RESUME"))
    s.run(300 - t - d)
    out, step = s.channel(0), pl.fade_step(fade)
    assert out[:t] == base[:t]
    held = base[t - 1]
    for i in range(d):
        g = max(0, 256 - step * (i + 1))
        assert out[t + i][0] == faded(held[0], g)
    for j in range(300 - t - d):
        g = min(256, step * (j + 1))
        want = base[t + j]
        assert out[t + d + j][0] == faded(want[0], g) or want[2] == 1, j
        if j >= fade:
            assert out[t + d + j] == want


def test_scheduled_pause_and_resume_take_effect_at_their_ticks():
    s = s3.Session(channels=1, players=4, channel_cfg=[{}])
    s.upload(0, ENVELOPE)
    s.command("PLAY", s3.play(1, 1, 0))
    s.command("CONTROL", s3.control(1, 1, "PAUSE", at=40))
    s.command("CONTROL", s3.control(1, 1, "RESUME", at=90))
    s.run(300)
    base = solo(ENVELOPE, 300).channel(0)
    out = s.channel(0)
    assert out[:40] == base[:40] and out[40] != base[40]
    assert out[90 + 8:] [:100] == base[40 + 8:][:100]


def test_rate_is_the_documented_resampling():
    t_end = total(LOOPED)
    base = solo(LOOPED, t_end + 30).channel(0)
    for rate in (64, 100, 256, 300, 512, 777, 1024):
        out = solo(LOOPED, t_end * 4 + 30, rate=rate).channel(0)
        d = 0
        while d * rate // 256 < t_end:
            assert out[d] == base[d * rate // 256], (rate, d)
            d += 1
        assert out[d] == (0, 0, 1)  # the end: the first device tick whose program tick reaches T


def test_loop_end_and_count():
    t_end, loop_end = total(ENVELOPE), 60
    base = solo(ENVELOPE, t_end + 5).channel(0)
    out = solo(ENVELOPE, 2 * loop_end + t_end + 5, loops=3, loop_end=loop_end).channel(0)
    assert out[:loop_end] == base[:loop_end]
    assert out[loop_end:2 * loop_end] == base[:loop_end]
    assert out[2 * loop_end:2 * loop_end + t_end] == base[:t_end]
    assert out[2 * loop_end + t_end] == (0, 0, 1)


def test_two_players_equal_the_mixing_rule_applied_to_each_alone():
    for use_sum in (True, False):
        a = solo(ENVELOPE, 250, sum=use_sum).channel(0)
        b_alone = s3.Session(channels=1, players=4, channel_cfg=[{}])
        b_alone.upload(1, LOOPED)
        b_alone.command("PLAY", s3.play(2, 1, 1, sum=use_sum))
        b_alone.run(250)
        b = b_alone.channel(0)
        both = s3.Session(channels=1, players=4, channel_cfg=[{}])
        both.upload(0, ENVELOPE)
        both.upload(1, LOOPED)
        both.command("PLAY", s3.play(1, 1, 0, sum=use_sum))
        both.command("PLAY", s3.play(2, 1, 1, sum=use_sum))
        both.run(250)
        for i, got in enumerate(both.channel(0)):
            parts = [(x[0], x[1], use_sum) for x in (a[i], b[i]) if x[0] > 0]
            amp, sharp = pl.mix(parts)
            brake = a[i][2] or b[i][2]
            assert got == ((amp, sharp, 0) if amp else (0, 0, 1 if brake else 0)), i


def test_a_group_play_starts_every_channel_on_the_same_tick():
    s = s3.Session(channels=3, players=4, channel_cfg=[{}, {}, {}], wake=20)
    s.upload(0, ENVELOPE)
    s.command("PLAY", s3.play(1, 0b101, 0))
    s.run(60)
    started = [p for (_, p) in s.replies("TELEMETRY") if p[0] == 1]
    assert sorted(p[2] for p in started) == [0, 2]
    assert len({int.from_bytes(p[5:9], "little") for p in started}) == 1
    assert s.channel(1) == [(0, 0, 0)] * 60
    assert s.channel(0) == s.channel(2)


def test_trim_is_the_documented_tick_mapping():
    for period in (16000, 1000, 65535):
        for trim in (-10000, -4321, -1, 0, 1, 999, 10000):
            starts = pl.tick_mapping(period, [trim] * 3000, 3000)
            for k in range(0, 3001, 7):
                assert starts[k] == k * period - (k * period * trim) // 1000000
            lengths = [b - a for a, b in zip(starts, starts[1:])]
            bound = -(-period * abs(trim) // 1000000)
            assert all(abs(x - period) <= bound for x in lengths)


def test_the_one_pass_check_of_rule_f_equals_the_expanded_one():
    rng, seen = s3.rng(11), {True: 0, False: 0}
    for _ in range(3000):
        lines = []
        depth = 0
        for _ in range(rng.randint(2, 10)):
            r, d = rng.random(), rng.choice([0, 1, 2, 4, 7, 12, 25])
            if r < 0.2 and depth < 3:
                lines.append(("LOOP", d, rng.randint(1, 4)))
                depth += 1
            elif r < 0.35 and depth:
                lines.append(("ENDLOOP", rng.randint(1, 30)))
                depth -= 1
            elif r < 0.55:
                lines.append(("RAMP_A", d, rng.randint(0, 255), rng.choice([0, 2, 6, 15, 40])))
            elif r < 0.7:
                lines.append(("RAMP_S", d, rng.randint(0, 255), rng.choice([0, 3, 9, 30])))
            elif r < 0.85:
                lines.append(("PULSE", d, 9, rng.choice([0, 255])))
            else:
                lines.append(("SET_A", d, 5))
        lines += [("ENDLOOP", rng.randint(1, 30))] * depth + [("END", 1)]
        try:
            v2 = s3.pg.program(lines)[0]
            _, instructions = ref.validate(v2, ref.Config())
        except ref.Reject:
            continue
        try:
            p3.check_closed(instructions)
            closed = True
        except ref.Reject:
            closed = False
        assert p3.check_closed_one_pass(instructions) == closed, lines
        seen[closed] += 1
    assert seen[True] > 100 and seen[False] > 100, seen


def v2_vector(name):
    """A 2.0 program vector (../programs): its program, limiter and brake figures, and samples."""
    cfg, program, samples = {}, None, []
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "programs", name + ".txt")) as fh:
        for line in fh:
            if line.startswith("config:"):
                cfg = dict(kv.split("=") for kv in line.split()[1:])
            elif line.startswith("program:"):
                program = bytes.fromhex(line.split()[1])
            elif line[:1].isdigit():
                span, values = line.split(":")
                first, _, last = span.partition("-")
                sample = tuple(int(v) for v in values.split())
                samples += [sample] * (int(last or first) - int(first) + 1)
    return cfg, program, samples


def test_a_device_without_seek_takes_open_loops_and_plays_them_as_2_0():
    """3.1, 3.13: without SEEK (bit 9) COMMIT does not check rule (f); one play alone of a program
    that breaks it outputs what 2.0 outputs (3.6, "One player is 2.0"): the 2.0 vectors' samples."""
    for name in ("loop_ramp_crosses_iterations", "pulse_in_loop", "loop_head_nested", "loop_nested_4"):
        cfg, program, samples = v2_vector(name)
        program = program[:2] + bytes([p3.FORMAT_VERSION]) + program[3:]
        try:
            p3.validate3(program, ref.Config())
            raise AssertionError(f"{name}: rule (f) should refuse it")
        except p3.Reject3:
            pass
        channel = {"brake": int(cfg["brake"]), "threshold": int(cfg["threshold"]), "safety": int(cfg["safety"])}
        s = s3.Session(channels=1, players=4, channel_cfg=[channel], watchdog=0, caps=0x86)
        s.upload(0, program)
        s.command("PLAY", s3.play(1, 1, 0))
        s.run(len(samples))
        assert not s.replies("NACK"), name
        assert s.channel(0) == samples, name


def test_closed_loop_rule_rejects_a_ramp_crossing_the_iteration_end():
    crossing = s3.prog([("LOOP", 0, 3), ("RAMP_A", 0, 200, 10), ("ENDLOOP", 5), ("END", 1)])
    try:
        p3.validate3(crossing, ref.Config())
        raise AssertionError("accepted")
    except ref.Reject as r:
        assert r.code == p3.LOOP_NOT_CLOSED


def test_mixing_rule_values_from_the_text():
    assert pl.mix([]) == (0, 0)
    assert pl.mix([(100, 40, True)]) == (100, 40)                  # one player: its own sample
    assert pl.mix([(200, 0, True), (100, 255, True)]) == (255, 85)  # saturating sum; (25500 + 150) // 300
    assert pl.mix([(200, 0, False), (100, 255, False)]) == (200, 85)   # MAX: the larger
    assert pl.mix([(60, 10, True), (50, 20, True), (100, 0, False)]) == (110, 8)  # max(110, 100); 1705 // 210
    assert pl.mix([(1, 0, True), (1, 255, True)]) == (2, 128)      # half rounds up


def test_a_higher_priority_play_ducks_with_the_fade_and_hands_back():
    tap = s3.prog([("PULSE", 2, 255, 255), ("END", 12)])            # T = 14
    start, fade, duck = 40, 8, 64
    rumble = solo(LOOPED, 200, loops=0).channel(0)
    alone = s3.Session(channels=1, players=4, channel_cfg=[{}])
    alone.upload(1, tap)
    alone.run(start)
    alone.command("PLAY", s3.play(2, 1, 1))
    alone.run(200 - start)
    click = alone.channel(0)
    s = s3.Session(channels=1, players=4, channel_cfg=[{}])
    s.upload(0, LOOPED)
    s.upload(1, tap)
    s.command("PLAY", s3.play(1, 1, 0, loops=0))
    s.run(start)
    s.command("PLAY", s3.play(2, 1, 1, priority=1, duck=duck))
    s.run(200 - start)
    out, step, gain = s.channel(0), pl.fade_step(fade), 256
    for n in range(200):
        # the tap sounds from its start to its END tick (its last PLAYING step): target m'(duck)
        target = pl.m_prime(duck) if start <= n <= start + 14 else 256
        gain += max(-step, min(step, target - gain))
        low = faded(rumble[n][0], gain)
        parts = [(a, sh, False) for a, sh in ((low, rumble[n][1]), click[n][:2]) if a > 0]
        amp, sharp = pl.mix(parts)
        braking = start + 14 <= n < start + 14 + BRAKE  # the tap's brake shows only where nothing sounds
        assert out[n] == ((amp, sharp, 0) if amp else (0, 0, 1 if braking else 0)), n
    assert gain == 256 and out[199] == rumble[199]  # handed back


def test_loops_at_a_rate_restart_in_program_time():
    t_end, rate = total(ENVELOPE), 512
    base = solo(ENVELOPE, t_end + 5).channel(0)
    looped = base[:t_end] * 3
    out = solo(ENVELOPE, 3 * t_end, loops=3, rate=rate).channel(0)
    d = 0
    while d * rate // 256 < 3 * t_end:
        assert out[d] == looped[d * rate // 256], d
        d += 1
    assert out[d] == (0, 0, 1)


def test_a_sync_wire_follower_locks_to_a_drifting_leader():
    from fractions import Fraction
    for drift in (-5000, -1000, 0, 1000, 5000):
        errors, tau = pl.sync_follower(1 + Fraction(drift, 10**6), 16000, 10, 30000, 300)
        assert max(abs(e) for e in errors[100:]) <= 1, drift       # within a count after 0.1 s
        assert abs(tau + drift) <= 1, (drift, tau)                  # the trim found the drift


if __name__ == "__main__":  # without pytest: run every check, name the ones that fail
    failed = 0
    for name, check in sorted((n, f) for n, f in globals().items() if n.startswith("test_")):
        try:
            check()
        except AssertionError as problem:
            failed += 1
            print(f"FAILED {name}: {problem}")
    print(f"{len([n for n in globals() if n.startswith('test_')]) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
