#ifndef DIST_ARGUMENTS_H
#define DIST_ARGUMENTS_H

#include <string>

// Options after '=' in -agentpath:libdistjvmti.so=verbose,... (or the jcmd
// JVMTI.agent_load options): comma-separated key[=value] items.
struct Arguments {
    bool verbose = false;
    // Ask for can_access_local_variables, which reading a frame's locals needs. Off by default:
    // with it HotSpot keeps every local variable of compiled code alive, and compiled code runs
    // slower (a tenth slower on the ray tracer sample).
    bool locals = false;

    // Returns an empty string on success. Otherwise returns the message for the
    // user, naming the offending item and the valid options; the fields are then
    // unspecified, because the JVM refuses to start anyway.
    std::string parse(const char* options);
};

#endif // DIST_ARGUMENTS_H
