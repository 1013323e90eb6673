#ifndef DIST_LOCALS_READER_H
#define DIST_LOCALS_READER_H

#include <jvmti.h>

#include <string>
#include <vector>

// One char per local variable slot, as NativeAgent.currentLocals documents.
// boolean, byte, char and short live in int slots, hence no codes of their own.
enum class SlotType : char {
    Int = 'I',
    Long = 'J',
    Float = 'F',
    Double = 'D',
    Object = 'L',
    Skip = '-',
};

// Returns an empty string when spec is valid and fills types with one entry
// per slot. Otherwise returns a message naming the offending slot: an unknown
// code, or a long/double whose second slot is not given as '-'.
std::string parseSlotTypes(const char* spec, std::vector<SlotType>& types);

// Reads one slot of the current thread's frame at the JVMTI depth given (the
// caller accounts for its own native frame). type must not be Skip. An Object
// value is a new local reference.
jvmtiError readSlot(jvmtiEnv* jvmti, jint depth, jint slot, SlotType type, jvalue& value);

#endif // DIST_LOCALS_READER_H
