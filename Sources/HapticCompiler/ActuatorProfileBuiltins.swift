/// The shipped profiles, built in so an installed `haptic` works without the repository.
/// Each entry equals hardware/actuators/<name>.json (ProfileBuiltinsTests loads every file and
/// compares): edit both together. Figures and their sources are explained in the files' "sources"
/// and in hardware/actuators/README.md.
extension ActuatorProfile {
    public static let builtIns: [ActuatorProfile] = [
        ActuatorProfile(
            name: "lra-drv2605l-170hz-10mm",
            part: "TI DRV2605L in closed-loop RTP mode driving a Jinlong Z10SC2B 10 mm LRA (as on common DRV2605L breakout setups)",
            description: "The DRV2605L tracks the LRA's real resonance (auto-resonance) and senses back-EMF for automatic overdrive and braking; the firmware writes the amplitude code to the RTP register every tick. Sharpness shapes the edges: 0 is the natural soft response (like the ROM library's 'no kick or brake' hums), 1 is full kick and brake.",
            drive: .init(ratedVolts: 2, overdriveVolts: 2.5, voltage: .rms),
            mechanics: .lra(.init(resonanceHz: 170, qualityFactor: 12, closedLoop: true, bandHz: nil)),
            edges: .init(kickMs: 36, brakeMs: 14, brakeRatio: 1.25),
            transfer: .init(curve: .power(exponent: 2), floor: 0),
            sharpness: .edges(minimumEdge: 0),
            sources: [
                "drive.ratedVolts":
                    "LRA datasheet class: 2.0 Vrms rated; program it into RATED_VOLTAGE with the DRV2605L datasheet's LRA closed-loop equation (it depends on f0 and SAMPLE_TIME). In closed-loop RTP, code 255 is rated voltage (TI E2E: amplitude/255 x RATED_VOLTAGE).",
                "drive.overdriveVolts":
                    "Estimated: 2.5 Vrms equivalent for OD_CLAMP, which the DRV2605L applies during its automatic overdrive and braking (OD_CLAMP is a peak value: 2.5 Vrms of sine is 3.54 V peak).",
                "lra.resonanceHz":
                    "Datasheet class: 170 Hz. The DRV2605L tracks the part's actual resonance, so the tolerance does not matter here.",
                "lra.qualityFactor":
                    "Estimated: 12, as lra-170hz-10mm (same part).",
                "edges.kickMs":
                    "Cap on the automatic overdrive: tau ln(k / (k - 1)) = 36.2 ms reaches full level; back-EMF sensing ends it as soon as the target is reached.",
                "edges.brakeMs":
                    "Cap on the automatic brake and the stop brake time for the device: sensing stops the brake at 5 % after tau ln((1 + B) / (0.05 + B)) = 12.3 ms; 14 ms leaves the sensing the last word.",
                "edges.brakeRatio":
                    "Brake at the OD_CLAMP ceiling: B = k = 1.25.",
                "transfer.exponent":
                    "Meta/Lofelt convention amplitude = intensity^2.",
                "transfer.floor":
                    "No dead zone: no floor.",
                "sharpness.minimumEdge":
                    "0: the softest sharpness gets no kick and no brake (the ROM library's 'Smooth Hum (No kick or brake pulse)' effects are the precedent).",
            ]),
        ActuatorProfile(
            name: "lra-235hz-8mm",
            part: "Vybronics VG0832012L, 8 mm x 3.2 mm coin LRA (same class: Jinlong G0832012)",
            description: "8 mm coin LRA at 235 Hz on an open-loop H-bridge that synthesizes the drive sine itself; sharpness moves the drive frequency across the resonance peak.",
            drive: .init(ratedVolts: 1.8, overdriveVolts: 2.5, voltage: .rms),
            mechanics: .lra(.init(resonanceHz: 235, qualityFactor: 15, closedLoop: false, bandHz: 225...245)),
            edges: .init(kickMs: 26, brakeMs: 11, brakeRatio: 1.38),
            transfer: .init(curve: .power(exponent: 2), floor: 0),
            sharpness: .frequency(minHz: 225, maxHz: 245, scale: .linear),
            sources: [
                "drive.ratedVolts":
                    "Datasheet (as quoted in public DRV2605L bring-up firmware, not re-checked against the PDF): rated 1.8 Vrms sine, operating range 0.1-1.85 Vrms.",
                "drive.overdriveVolts":
                    "Estimated: 2.5 Vrms for kick and brake bursts of a few tens of ms, above the datasheet's 1.85 Vrms continuous maximum (common DRV2605L practice: OD_CLAMP above RATED_VOLTAGE). Set 1.85 to stay inside the datasheet.",
                "lra.resonanceHz":
                    "Datasheet (same quotation): resonant frequency 235 +/- 5 Hz.",
                "lra.qualityFactor":
                    "Estimated (no datasheet states Q): 15, in the 10-20 range of coin LRAs under a low-impedance driver; gives tau = Q/(pi f0) = 20.3 ms and a free decay to 10 % in 46.8 ms. Measure it: time the free decay to 10 % and use Q = pi f0 t10 / ln 10.",
                "lra.bandHz":
                    "Estimated: f0 +/- 10 Hz, the datasheet's +/- 5 Hz part tolerance plus +/- 5 Hz of sharpness swing; at the band edges the steady acceleration is still about 60 % of the resonant one (Q = 15).",
                "edges.kickMs":
                    "Derived: tau ln(k / (k - 1)) with k = 2.5 / 1.8 = 1.389 and tau = 20.3 ms: 25.9 ms, the overdrive time that lands the envelope on its target.",
                "edges.brakeMs":
                    "Derived: tau ln((1 + B) / B) with B = 1.38: 11.1 ms, the anti-phase time that brings the envelope to zero.",
                "edges.brakeRatio":
                    "Chosen: brake at the overdrive ceiling (just under k = 1.389).",
                "transfer.exponent":
                    "Meta/Lofelt exporter convention amplitude = intensity^2 (their intensity = sqrt(amplitude)); an LRA's acceleration is proportional to its drive, so acceleration = intensity^2.",
                "transfer.floor":
                    "An LRA has no dead zone: no floor.",
                "sharpness.minHz":
                    "Band low edge (see lra.bandHz).",
                "sharpness.maxHz":
                    "Band high edge (see lra.bandHz).",
            ]),
        ActuatorProfile(
            name: "lra-170hz-10mm",
            part: "Jinlong Z10SC2B, 10 mm coin LRA (same class: Precision Microdrives C10-100)",
            description: "10 mm coin LRA at 170 Hz on an open-loop H-bridge; sharpness moves the drive frequency across the resonance peak.",
            drive: .init(ratedVolts: 2, overdriveVolts: 2.5, voltage: .rms),
            mechanics: .lra(.init(resonanceHz: 170, qualityFactor: 12, closedLoop: false, bandHz: 160...180)),
            edges: .init(kickMs: 36, brakeMs: 13, brakeRatio: 1.25),
            transfer: .init(curve: .power(exponent: 2), floor: 0),
            sharpness: .frequency(minHz: 160, maxHz: 180, scale: .linear),
            sources: [
                "drive.ratedVolts":
                    "Datasheet class (Jinlong 10 mm LRA series, as remembered, not re-checked): rated 2.0 Vrms sine at resonance. Check the sheet of the exact part.",
                "drive.overdriveVolts":
                    "Estimated: 2.5 Vrms for short kick and brake bursts (k = 1.25).",
                "lra.resonanceHz":
                    "Datasheet class: 170 Hz nominal resonance for the Z10SC2B (PMD's 10 mm C10-100 is listed near 175 Hz).",
                "lra.qualityFactor":
                    "Estimated (no datasheet states Q): 12, larger moving mass and more damping than the 8 mm part; tau = Q/(pi f0) = 22.5 ms.",
                "lra.bandHz":
                    "Estimated: f0 +/- 10 Hz (part tolerance plus sharpness swing); about 60 % of the resonant acceleration at the edges (Q = 12).",
                "edges.kickMs":
                    "Derived: tau ln(k / (k - 1)) = 22.5 ms x ln 5 = 36.2 ms with k = 1.25: little overdrive headroom makes a long kick.",
                "edges.brakeMs":
                    "Derived: tau ln((1 + B) / B) = 22.5 ms x ln(2.25 / 1.25) = 13.2 ms.",
                "edges.brakeRatio":
                    "Chosen: brake at the overdrive ceiling, B = k = 1.25.",
                "transfer.exponent":
                    "Meta/Lofelt convention amplitude = intensity^2; acceleration proportional to drive for an LRA.",
                "transfer.floor":
                    "No dead zone: no floor.",
                "sharpness.minHz":
                    "Band low edge.",
                "sharpness.maxHz":
                    "Band high edge.",
            ]),
        ActuatorProfile(
            name: "erm-coin-10mm",
            part: "Precision Microdrives 310-101 class 10 mm x 3 mm coin ERM (same class: Jinlong C1030)",
            description: "Coin vibration motor on a single low-side transistor with a flyback diode (PWM from the MCU): it can kick but not brake. Sharpness scales the kick.",
            drive: .init(ratedVolts: 3, overdriveVolts: 3.6, voltage: .dc),
            mechanics: .erm(.init(timeConstantMs: 35, coastTimeConstantMs: 70, ratedSpeedRPM: 12000,
                                  startLevel: 0.77, minimumRunningLevel: 0.5, bidirectional: false)),
            edges: .init(kickMs: 63, brakeMs: 0, brakeRatio: 0),
            transfer: .init(curve: .linear, floor: 0.65),
            sharpness: .edges(minimumEdge: 0.5),
            sources: [
                "drive.ratedVolts":
                    "Datasheet class (10 mm coin ERMs): rated 3.0 V DC.",
                "drive.overdriveVolts":
                    "Datasheet class: maximum operating voltage 3.6 V (operating range 2.3-3.6 V), used as the kick ceiling (k = 1.2).",
                "erm.timeConstantMs":
                    "Estimated: 35 ms (typical coin ERM rise to 90 % of speed in about 80 ms = 2.3 tau; REFERENCE range 30-100 ms). Measure: time to 63 % of rated speed.",
                "erm.coastTimeConstantMs":
                    "Estimated: twice the driven constant. With the transistor off the flyback diode is reverse-biased by the back-EMF, so the motor loses its electrical damping and coasts on friction alone.",
                "erm.ratedSpeedRPM":
                    "Datasheet class: 12,000 rpm at 3.0 V (vibration at 200 Hz).",
                "erm.startLevel":
                    "Datasheet class: starting voltage 2.3 V = 0.77 of rated.",
                "erm.minimumRunningLevel":
                    "Estimated: a turning coin motor keeps running down to about half its rated voltage (1.5 V).",
                "edges.kickMs":
                    "Derived: tau ln(k / (k - 1)) = 35 ms x ln 6 = 62.7 ms to reach the target speed at k = 1.2.",
                "edges.brakeMs":
                    "A single-switch driver cannot reverse the motor: no brake.",
                "edges.brakeRatio":
                    "No brake.",
                "transfer.floor":
                    "Chosen: 0.65, above the minimum running level and high enough that the kick (0.65 x 1.2 = 0.78) passes the 0.77 start level, so every non-zero intensity starts the motor from rest.",
                "sharpness.minimumEdge":
                    "Chosen: 0.5, an ERM pulse without a kick is hardly felt (REFERENCE: ERM clicks need 30 ms or more); half the kick is the softest edge.",
            ]),
        ActuatorProfile(
            name: "erm-cylinder-7mm",
            part: "Precision Microdrives 307-103 class 7 mm cylinder (pager) ERM on an H-bridge (e.g. TI DRV8833)",
            description: "Cylinder pager motor with a heavier eccentric mass, driven by an H-bridge that can reverse it to brake. Sharpness scales kick and brake.",
            drive: .init(ratedVolts: 3, overdriveVolts: 3.6, voltage: .dc),
            mechanics: .erm(.init(timeConstantMs: 50, coastTimeConstantMs: 100, ratedSpeedRPM: 12500,
                                  startLevel: 0.5, minimumRunningLevel: 0.35, bidirectional: true)),
            edges: .init(kickMs: 90, brakeMs: 30, brakeRatio: 1.2),
            transfer: .init(curve: .linear, floor: 0.42),
            sharpness: .edges(minimumEdge: 0.5),
            sources: [
                "drive.ratedVolts":
                    "Datasheet class (7 mm pager motors): rated 3.0 V DC.",
                "drive.overdriveVolts":
                    "Datasheet class: 3.6 V maximum operating voltage, used as kick and brake ceiling (k = 1.2).",
                "erm.timeConstantMs":
                    "Estimated: 50 ms, slower than a coin motor because of the larger eccentric mass (REFERENCE range 30-100 ms).",
                "erm.coastTimeConstantMs":
                    "Estimated: twice the driven constant (no electrical damping while coasting).",
                "erm.ratedSpeedRPM":
                    "Typical, not from a datasheet: 12,500 rpm at 3 V for 7 mm pager motors (vibration near 208 Hz).",
                "erm.startLevel":
                    "Estimated: cylinder motors start near 1.5 V = 0.5 of rated.",
                "erm.minimumRunningLevel":
                    "Estimated: keeps turning down to about 1.05 V = 0.35 of rated.",
                "edges.kickMs":
                    "Derived: tau ln(k / (k - 1)) = 50 ms x ln 6 = 89.6 ms.",
                "edges.brakeMs":
                    "Derived: tau ln((1 + B) / B) = 50 ms x ln(2.2 / 1.2) = 30.3 ms of reverse drive to stop from a steady speed.",
                "edges.brakeRatio":
                    "Chosen: reverse at the 3.6 V ceiling, B = k = 1.2.",
                "transfer.floor":
                    "Chosen: 0.42, above the minimum running level, and 0.42 x 1.2 = 0.504 passes the start level with the kick.",
                "sharpness.minimumEdge":
                    "Chosen: 0.5 (an ERM needs some kick to be felt at all).",
            ]),
        ActuatorProfile(
            name: "vc-haptuator-mark2d",
            part: "Tactile Labs Haptuator Mark II-D (Actronika HFBA121238), wideband voice-coil actuator, on an audio amplifier",
            description: "Wideband voice coil driven like a loudspeaker: any frequency in its band; sharpness is the drive frequency, 65-300 Hz on a log scale. Well damped, so no kick or brake is needed.",
            drive: .init(ratedVolts: 1.41, overdriveVolts: 1.41, voltage: .rms),
            mechanics: .voiceCoil(.init(resonanceHz: 65, qualityFactor: 1.3, bandHz: 60...1000, referenceHz: 140)),
            edges: .init(kickMs: 0, brakeMs: 0, brakeRatio: 0),
            transfer: .init(curve: .power(exponent: 2), floor: 0),
            sharpness: .frequency(minHz: 65, maxHz: 300, scale: .log),
            sources: [
                "drive.ratedVolts":
                    "Datasheet (Actronika HFBA121238, sold by Tactile Labs as Mark II-D; as summarized in public engineering notes): rated 1.41 Vrms, 147.8 mArms.",
                "drive.overdriveVolts":
                    "No overdrive: the part is well damped (tau = 6.4 ms), so kicks buy little.",
                "voice-coil.resonanceHz":
                    "Datasheet: resonance 65 Hz with a 100 g load (the unloaded resonance is not given).",
                "voice-coil.qualityFactor":
                    "Estimated from the datasheet's 14 ms rise time read as a time to 90 % (tau = 14 / ln 10 = 6.1 ms, Q = pi f0 tau = 1.24), rounded to 1.3.",
                "voice-coil.bandHz":
                    "Rated bandwidth 90-1000 Hz for the Mark II (secondary source), extended down to 60 Hz around the loaded resonance; below resonance the output falls with f^2.",
                "voice-coil.referenceHz":
                    "Chosen: 140 Hz, the log-middle of the sharpness range (sharpness code 128), where envelope 1.0 is defined.",
                "edges.kickMs":
                    "No overdrive headroom, no kick.",
                "edges.brakeMs":
                    "Well damped: no brake.",
                "edges.brakeRatio":
                    "No brake.",
                "transfer.exponent":
                    "Meta/Lofelt convention amplitude = intensity^2; above resonance a voice coil's acceleration follows its drive.",
                "transfer.floor":
                    "No dead zone: no floor.",
                "sharpness.minHz":
                    "MPEG-I haptics reference encoder maps sharpness 0...1 to 65...300 Hz (REFERENCE section 3).",
                "sharpness.maxHz":
                    "Same mapping, upper end.",
            ]),
    ]
}
