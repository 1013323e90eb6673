/**
 * Moves Protocol Buffers envelopes between endpoints on framed TCP connections: request/reply with
 * timeouts, one-way messages in per-peer order, the cluster token, bounded frames and error
 * replies. A body is a protobuf message or raw bytes in a {@link dev.distvm.transport.WireBuffer}.
 * {@link dev.distvm.transport.Endpoint} is the API; the package knows nothing of objects, nodes or
 * roles.
 */
package dev.distvm.transport;
