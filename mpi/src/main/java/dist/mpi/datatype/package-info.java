/**
 * What an mpiJava datatype is underneath: its flattened type map ({@link dist.mpi.datatype.TypeLayout})
 * and the conversion of typed Java buffers to and from the wire form the engine carries. In mpirun's
 * threads mode each rank loads this package itself, as it does {@code mpi}, since these classes
 * throw and take {@code mpi} types.
 */
package dist.mpi.datatype;
