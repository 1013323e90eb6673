#ifndef DIST_CAPABILITIES_H
#define DIST_CAPABILITIES_H

#include <jvmti.h>

#include <cstddef>
#include <string>

#include "arguments.h"

// jvmtiCapabilities is a struct of bit-fields, which cannot be addressed by
// pointer-to-member; each entry therefore carries its own accessors.
struct Capability {
    const char* name;  // the jvmtiCapabilities field name, as reported to Java
    void (*set)(jvmtiCapabilities& caps);
    bool (*isSet)(const jvmtiCapabilities& caps);
};

// What dist requests, in the order NativeAgent.WANTED_CAPABILITIES lists them.
extern const Capability WANTED_CAPABILITIES[];
extern const size_t WANTED_CAPABILITY_COUNT;

// What VM::init asks for: every wanted capability, except can_access_local_variables
// unless args.locals (see Arguments::locals).
jvmtiCapabilities requestedCapabilities(const Arguments& args);

// The wanted capabilities set in requested and not in obtained.
jvmtiCapabilities missingCapabilities(const jvmtiCapabilities& requested, const jvmtiCapabilities& obtained);

// Comma-separated names of the wanted capabilities set in caps; "" when there are none.
std::string capabilityNames(const jvmtiCapabilities& caps);

#endif // DIST_CAPABILITIES_H
