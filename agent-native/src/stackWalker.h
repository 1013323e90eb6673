#ifndef DIST_STACK_WALKER_H
#define DIST_STACK_WALKER_H

#include <jni.h>
#include <jvmti.h>

#include <string>
#include <vector>

struct FrameInfo {
    std::string className;   // binary name, as Class.getName() returns it
    std::string methodName;
    std::string descriptor;
    jint bci;                // -1 for a native method
    jint lineNumber;         // -1 when unknown
};

// Describes the current thread's frames from JVMTI depth startDepth down to the
// bottom of the stack, top first. A startDepth past the bottom yields no frames.
jvmtiError walkCurrentThread(jvmtiEnv* jvmti, JNIEnv* jni, jint startDepth,
                             std::vector<FrameInfo>& frames);

// "Ljava/util/Map$Entry;" -> "java.util.Map$Entry". JVMTI writes a hidden
// class's "/0x..." suffix as ".0x...", the one place an internal name holds a
// '.', so swapping the two characters yields exactly Class.getName().
std::string binaryClassName(const char* signature);

// Line of the entry with the greatest start location not after bci, or -1.
// JVMTI does not promise the table is sorted, so it is searched in full.
jint lineNumberAt(const jvmtiLineNumberEntry* table, jint count, jlocation bci);

#endif // DIST_STACK_WALKER_H
