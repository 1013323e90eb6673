#ifndef DIST_VM_H
#define DIST_VM_H

#include <jni.h>
#include <jvmti.h>

#include <atomic>

#include "arguments.h"

// The agent's JVMTI environment and what it was granted, shared by the JVMTI
// entry points (which set them up) and the JNI natives (which use them).
class VM {
  public:
    // Obtains the environment and every wanted capability the VM can still
    // grant. live is true when attaching to a running VM. Returns JNI_ERR
    // only when there is no JVMTI environment at all.
    static jint init(JavaVM* vm, const Arguments& args, bool live);

    // nullptr when the library was not loaded as an agent (e.g. System.load).
    static jvmtiEnv* jvmti() { return _jvmti.load(std::memory_order_acquire); }

    // Valid once jvmti() is non-null.
    static const jvmtiCapabilities& capabilities() { return _capabilities; }

  private:
    // Natives may run on other threads as soon as the library is on the VM's
    // agent list; release/acquire publishes _capabilities together with it.
    static std::atomic<jvmtiEnv*> _jvmti;
    static jvmtiCapabilities _capabilities;
};

#endif // DIST_VM_H
