/* Open MPI's side of dev.distvm.perf.MpiPingPong: the same ping-pong in C, printing the same result line. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double bounce(int rank, char *buffer, int size, int trips) {
    double start = MPI_Wtime();
    for (int i = 0; i < trips; i++) {
        if (rank == 0) {
            MPI_Send(buffer, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buffer, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buffer, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - start) / trips;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int small_trips = argc > 1 ? atoi(argv[1]) : 5000;
    int large_trips = argc > 2 ? atoi(argv[2]) : 500;
    int large = 1 << 20;
    char *buffer = calloc(large, 1);
    bounce(rank, buffer, 1, small_trips);
    double latency = bounce(rank, buffer, 1, small_trips);
    bounce(rank, buffer, large, large_trips);
    double per_large = bounce(rank, buffer, large, large_trips);
    if (rank == 0) {
        printf("latency_us %.3f bandwidth_MBps %.3f\n", latency * 1e6, 2.0 * large / per_large / 1e6);
    }
    free(buffer);
    MPI_Finalize();
    return 0;
}
