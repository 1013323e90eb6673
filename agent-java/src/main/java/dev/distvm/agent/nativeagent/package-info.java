/** The Java side of the JVMTI agent {@code libdistjvmti.so}: its capabilities, frames and locals. */
package dev.distvm.agent.nativeagent;
