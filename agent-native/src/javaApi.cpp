// Natives of dev.distvm.agent.nativeagent.NativeAgent. HotSpot binds them by symbol
// name: when a class loader's own libraries lack a native, it searches the
// libraries loaded with -agentpath or by dynamic attach. That is why these are
// exported, and why NativeAgent never calls System.load.

#include <jni.h>

#include <climits>
#include <string>
#include <vector>

#include "capabilities.h"
#include "localsReader.h"
#include "stackWalker.h"
#include "vm.h"

namespace {

// JVMTI depth 0 is the native method itself; Java callers count from their own frame.
constexpr jint NATIVE_FRAME = 1;

const char* const ILLEGAL_ARGUMENT = "java/lang/IllegalArgumentException";
const char* const ILLEGAL_STATE = "java/lang/IllegalStateException";

struct Boxer {
    jclass type;
    jmethodID valueOf;
};

// java.lang classes are loaded during VM startup and never unloaded, so their
// global references and method IDs stay valid for the life of the VM.
struct JavaLang {
    jclass object;
    jclass string;
    Boxer integers, longs, floats, doubles;

    static const JavaLang& get(JNIEnv* env) {
        static const JavaLang instance{
            globalClass(env, "java/lang/Object"),
            globalClass(env, "java/lang/String"),
            boxer(env, "java/lang/Integer", "(I)Ljava/lang/Integer;"),
            boxer(env, "java/lang/Long", "(J)Ljava/lang/Long;"),
            boxer(env, "java/lang/Float", "(F)Ljava/lang/Float;"),
            boxer(env, "java/lang/Double", "(D)Ljava/lang/Double;"),
        };
        return instance;
    }

    static jclass globalClass(JNIEnv* env, const char* name) {
        jclass local = env->FindClass(name);
        jclass global = static_cast<jclass>(env->NewGlobalRef(local));
        env->DeleteLocalRef(local);
        return global;
    }

    static Boxer boxer(JNIEnv* env, const char* name, const char* signature) {
        jclass type = globalClass(env, name);
        return {type, env->GetStaticMethodID(type, "valueOf", signature)};
    }
};

void throwNew(JNIEnv* env, const char* className, const std::string& message) {
    jclass type = env->FindClass(className);
    if (type != nullptr) env->ThrowNew(type, message.c_str());
}

// Errors that follow from the arguments (bad depth, slot or type), as opposed
// to the state of the VM.
bool isCallersFault(jvmtiError err) {
    switch (err) {
        case JVMTI_ERROR_INVALID_SLOT:
        case JVMTI_ERROR_TYPE_MISMATCH:
        case JVMTI_ERROR_NO_MORE_FRAMES:
        case JVMTI_ERROR_OPAQUE_FRAME:
        case JVMTI_ERROR_ILLEGAL_ARGUMENT:
            return true;
        default:
            return false;
    }
}

void throwJvmtiError(JNIEnv* env, jvmtiEnv* jvmti, jvmtiError err, const std::string& what) {
    std::string message = what + ": ";
    char* name = nullptr;
    if (jvmti->GetErrorName(err, &name) == JVMTI_ERROR_NONE) {
        message += name;
        jvmti->Deallocate(reinterpret_cast<unsigned char*>(name));
    } else {
        message += "JVMTI error " + std::to_string(err);
    }
    throwNew(env, isCallersFault(err) ? ILLEGAL_ARGUMENT : ILLEGAL_STATE, message);
}

jvmtiEnv* agentOrThrow(JNIEnv* env) {
    jvmtiEnv* jvmti = VM::jvmti();
    if (jvmti == nullptr) {
        throwNew(env, ILLEGAL_STATE,
                 "libdistjvmti.so was loaded as a plain library, not as an agent: "
                 "load it with -agentpath");
    }
    return jvmti;
}

bool checkDepth(JNIEnv* env, jint depth, const char* name) {
    if (depth >= 0) return true;
    throwNew(env, ILLEGAL_ARGUMENT, std::string(name) + " must not be negative, was " +
                                        std::to_string(depth));
    return false;
}

// Saturates instead of overflowing: no stack is 2^31 frames deep, so a
// depth near INT_MAX means "past the bottom" either way.
jint jvmtiDepth(jint depth) {
    return depth <= INT_MAX - NATIVE_FRAME ? depth + NATIVE_FRAME : INT_MAX;
}

jobject box(JNIEnv* env, SlotType type, const jvalue& value) {
    const JavaLang& lang = JavaLang::get(env);
    const Boxer& boxer = type == SlotType::Int     ? lang.integers
                         : type == SlotType::Long  ? lang.longs
                         : type == SlotType::Float ? lang.floats
                                                   : lang.doubles;
    // The A variant takes the jvalue as is, sidestepping float-to-double
    // promotion through varargs.
    return env->CallStaticObjectMethodA(boxer.type, boxer.valueOf, &value);
}

jobject newFrame(JNIEnv* env, jclass frameClass, jmethodID constructor, const FrameInfo& info) {
    // Each step only if the previous did not throw: JNI forbids most calls
    // while an exception is pending.
    jstring className = env->NewStringUTF(info.className.c_str());
    jstring methodName = className == nullptr ? nullptr : env->NewStringUTF(info.methodName.c_str());
    jstring descriptor = methodName == nullptr ? nullptr : env->NewStringUTF(info.descriptor.c_str());
    jobject frame = descriptor == nullptr
                        ? nullptr
                        : env->NewObject(frameClass, constructor, className, methodName,
                                         descriptor, info.bci, info.lineNumber);
    env->DeleteLocalRef(className);
    env->DeleteLocalRef(methodName);
    env->DeleteLocalRef(descriptor);
    return frame;
}

} // namespace

extern "C" JNIEXPORT jobjectArray JNICALL
Java_dev_distvm_agent_nativeagent_NativeAgent_capabilities(JNIEnv* env, jclass) {
    // Not an agent means nothing was obtained: report that rather than throw,
    // so missingCapabilities() lists everything.
    bool agent = VM::jvmti() != nullptr;
    std::vector<const char*> names;
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        if (agent && WANTED_CAPABILITIES[i].isSet(VM::capabilities())) {
            names.push_back(WANTED_CAPABILITIES[i].name);
        }
    }

    jobjectArray result = env->NewObjectArray(static_cast<jsize>(names.size()),
                                              JavaLang::get(env).string, nullptr);
    for (size_t i = 0; result != nullptr && i < names.size(); i++) {
        jstring name = env->NewStringUTF(names[i]);
        if (name == nullptr) return nullptr;
        env->SetObjectArrayElement(result, static_cast<jsize>(i), name);
        env->DeleteLocalRef(name);
    }
    return result;
}

extern "C" JNIEXPORT jobjectArray JNICALL
Java_dev_distvm_agent_nativeagent_NativeAgent_currentFrames(JNIEnv* env, jclass, jint skip) {
    jvmtiEnv* jvmti = agentOrThrow(env);
    if (jvmti == nullptr || !checkDepth(env, skip, "skip")) return nullptr;

    std::vector<FrameInfo> frames;
    jvmtiError err = walkCurrentThread(jvmti, env, jvmtiDepth(skip), frames);
    if (err != JVMTI_ERROR_NONE) {
        throwJvmtiError(env, jvmti, err, "walking the current thread's stack");
        return nullptr;
    }

    // Not cached: from a native method FindClass uses NativeAgent's own loader,
    // which is what makes the Frame class right if dist is ever loaded twice;
    // that loader already has Frame recorded, so the lookup is a table hit.
    jclass frameClass = env->FindClass("dev/distvm/agent/nativeagent/Frame");
    if (frameClass == nullptr) return nullptr;
    jmethodID constructor = env->GetMethodID(
        frameClass, "<init>", "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;II)V");
    if (constructor == nullptr) return nullptr;

    jobjectArray result = env->NewObjectArray(static_cast<jsize>(frames.size()), frameClass, nullptr);
    if (result == nullptr) return nullptr;
    for (size_t i = 0; i < frames.size(); i++) {
        jobject frame = newFrame(env, frameClass, constructor, frames[i]);
        if (frame == nullptr) return nullptr;
        env->SetObjectArrayElement(result, static_cast<jsize>(i), frame);
        env->DeleteLocalRef(frame);
    }
    return result;
}

extern "C" JNIEXPORT jobjectArray JNICALL
Java_dev_distvm_agent_nativeagent_NativeAgent_currentLocals(JNIEnv* env, jclass, jint depth,
                                                      jstring slotTypes) {
    jvmtiEnv* jvmti = agentOrThrow(env);
    if (jvmti == nullptr) return nullptr;
    if (!VM::capabilities().can_access_local_variables) {
        throwNew(env, ILLEGAL_STATE,
                 "can_access_local_variables was not obtained: load the dist agent at JVM "
                 "startup with -agentpath:/path/to/libdistjvmti.so=locals (a JVM grants it "
                 "only then, not on dynamic attach)");
        return nullptr;
    }
    if (!checkDepth(env, depth, "depth")) return nullptr;
    if (slotTypes == nullptr) {
        throwNew(env, "java/lang/NullPointerException", "slotTypes");
        return nullptr;
    }

    const char* spec = env->GetStringUTFChars(slotTypes, nullptr);
    if (spec == nullptr) return nullptr;
    std::vector<SlotType> types;
    std::string error = parseSlotTypes(spec, types);
    env->ReleaseStringUTFChars(slotTypes, spec);
    if (!error.empty()) {
        throwNew(env, ILLEGAL_ARGUMENT, error);
        return nullptr;
    }

    jobjectArray result = env->NewObjectArray(static_cast<jsize>(types.size()),
                                              JavaLang::get(env).object, nullptr);
    if (result == nullptr) return nullptr;
    for (size_t i = 0; i < types.size(); i++) {
        if (types[i] == SlotType::Skip) continue;
        jint slot = static_cast<jint>(i);
        jvalue value;
        jvmtiError err = readSlot(jvmti, jvmtiDepth(depth), slot, types[i], value);
        if (err != JVMTI_ERROR_NONE) {
            throwJvmtiError(env, jvmti, err,
                            "reading slot " + std::to_string(slot) + " as '" +
                                static_cast<char>(types[i]) + "' at depth " +
                                std::to_string(depth));
            return nullptr;
        }
        jobject boxed = types[i] == SlotType::Object ? value.l : box(env, types[i], value);
        if (env->ExceptionCheck()) return nullptr;
        env->SetObjectArrayElement(result, slot, boxed);
        env->DeleteLocalRef(boxed);
    }
    return result;
}
