package dist.mpi;

/** A message as the engine sees it: header and packed payload, never a Java object. */
public record Message(MessageHeader header, byte[] payload) {}
