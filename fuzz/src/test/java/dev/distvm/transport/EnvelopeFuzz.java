package dev.distvm.transport;

import dev.distvm.fuzz.DecoderContract;

/** A frame's bytes as an envelope: refused or dropped with a reason when they are not one, never anything else. */
public final class EnvelopeFuzz {
    private static final InboundChecks CHECKS = new InboundChecks();

    private EnvelopeFuzz() {}

    public static void fuzzerTestOneInput(byte[] frame) throws Throwable {
        DecoderContract.check(frame, () -> CHECKS.request(frame), InboundChecks.Refusal.class);
        DecoderContract.check(frame, () -> CHECKS.answer(frame));
    }
}
