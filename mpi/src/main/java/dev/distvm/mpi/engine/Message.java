package dev.distvm.mpi.engine;

/**
 * A message as the engine sees it: header and packed payload, never a Java object. The payload is
 * null when it went straight into the buffer of the receive that matched it ({@link ReceiveBuffer}).
 */
public record Message(MessageHeader header, byte[] payload) {}
