// A JNI library for agent-java's integration tests (dev.distvm.it.UnsupportedIT): the
// natives of itapp.unsupported.NativeCalls, an application class, bound the two
// ways a JVM binds natives. dist renames every native method of an application
// class behind a wrapper, so both must still reach this code through the prefix
// the agent registers: mix by its JNI symbol name, twice by RegisterNatives.

#include <jni.h>

namespace {

jint twice(JNIEnv*, jobject, jint x) {
    return 2 * x;
}

}  // namespace

extern "C" JNIEXPORT jlong JNICALL Java_itapp_unsupported_NativeCalls_mix(JNIEnv*, jclass, jint a, jlong b,
                                                                           jdouble c) {
    return a + b + static_cast<jlong>(c * 2);
}

extern "C" JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
    JNIEnv* env = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    jclass calls = env->FindClass("itapp/unsupported/NativeCalls");
    if (calls == nullptr) {
        return JNI_ERR;
    }
    JNINativeMethod methods[] = {{const_cast<char*>("twice"), const_cast<char*>("(I)I"), reinterpret_cast<void*>(twice)}};
    if (env->RegisterNatives(calls, methods, 1) != JNI_OK) {
        return JNI_ERR;
    }
    return JNI_VERSION_1_8;
}
