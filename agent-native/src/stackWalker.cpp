#include "stackWalker.h"

#include <cstring>

namespace {

// JVMTI hands out memory the agent must give back with Deallocate.
template <typename T>
class JvmtiBuffer {
  public:
    explicit JvmtiBuffer(jvmtiEnv* jvmti) : _jvmti(jvmti) {}
    JvmtiBuffer(const JvmtiBuffer&) = delete;
    JvmtiBuffer& operator=(const JvmtiBuffer&) = delete;
    ~JvmtiBuffer() {
        if (_ptr != nullptr) _jvmti->Deallocate(reinterpret_cast<unsigned char*>(_ptr));
    }
    T** out() { return &_ptr; }
    T* get() const { return _ptr; }

  private:
    jvmtiEnv* _jvmti;
    T* _ptr = nullptr;
};

jint lineNumberOf(jvmtiEnv* jvmti, jmethodID method, jlocation bci) {
    if (bci < 0) return -1;
    JvmtiBuffer<jvmtiLineNumberEntry> table(jvmti);
    jint count = 0;
    // Absent debug info (javac -g:none) is an ordinary outcome, not a failure.
    if (jvmti->GetLineNumberTable(method, &count, table.out()) != JVMTI_ERROR_NONE) return -1;
    return lineNumberAt(table.get(), count, bci);
}

jvmtiError describe(jvmtiEnv* jvmti, JNIEnv* jni, const jvmtiFrameInfo& frame, FrameInfo& info) {
    JvmtiBuffer<char> name(jvmti);
    JvmtiBuffer<char> descriptor(jvmti);
    jvmtiError err = jvmti->GetMethodName(frame.method, name.out(), descriptor.out(), nullptr);
    if (err != JVMTI_ERROR_NONE) return err;

    jclass holder = nullptr;
    err = jvmti->GetMethodDeclaringClass(frame.method, &holder);
    if (err != JVMTI_ERROR_NONE) return err;
    JvmtiBuffer<char> signature(jvmti);
    err = jvmti->GetClassSignature(holder, signature.out(), nullptr);
    // Deep stacks would otherwise exhaust the native method's local references.
    jni->DeleteLocalRef(holder);
    if (err != JVMTI_ERROR_NONE) return err;

    info.className = binaryClassName(signature.get());
    info.methodName = name.get();
    info.descriptor = descriptor.get();
    info.bci = static_cast<jint>(frame.location);
    info.lineNumber = lineNumberOf(jvmti, frame.method, frame.location);
    return JVMTI_ERROR_NONE;
}

} // namespace

jvmtiError walkCurrentThread(jvmtiEnv* jvmti, JNIEnv* jni, jint startDepth,
                             std::vector<FrameInfo>& frames) {
    frames.clear();
    jint total = 0;
    jvmtiError err = jvmti->GetFrameCount(nullptr, &total);
    if (err != JVMTI_ERROR_NONE) return err;
    if (startDepth >= total) return JVMTI_ERROR_NONE;

    // The current thread's own stack cannot change under us, so the count holds.
    std::vector<jvmtiFrameInfo> raw(static_cast<size_t>(total - startDepth));
    jint count = 0;
    err = jvmti->GetStackTrace(nullptr, startDepth, static_cast<jint>(raw.size()), raw.data(), &count);
    if (err != JVMTI_ERROR_NONE) return err;

    frames.resize(static_cast<size_t>(count));
    for (jint i = 0; i < count; i++) {
        err = describe(jvmti, jni, raw[i], frames[i]);
        if (err != JVMTI_ERROR_NONE) return err;
    }
    return JVMTI_ERROR_NONE;
}

std::string binaryClassName(const char* signature) {
    size_t length = std::strlen(signature);
    std::string name = length >= 2 && signature[0] == 'L' && signature[length - 1] == ';'
                           ? std::string(signature + 1, length - 2)
                           : std::string(signature);
    for (char& c : name) {
        if (c == '/') {
            c = '.';
        } else if (c == '.') {
            c = '/';
        }
    }
    return name;
}

jint lineNumberAt(const jvmtiLineNumberEntry* table, jint count, jlocation bci) {
    jint line = -1;
    jlocation best = -1;
    for (jint i = 0; i < count; i++) {
        if (table[i].start_location <= bci && table[i].start_location > best) {
            best = table[i].start_location;
            line = table[i].line_number;
        }
    }
    return line;
}
