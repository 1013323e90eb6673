package dev.distvm.mpi.launch;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.distvm.fuzz.ProtobufBodies;
import dev.distvm.mpi.launch.proto.LaunchRank;
import dev.distvm.mpi.launch.proto.Launched;
import dev.distvm.mpi.launch.proto.RankExit;
import dev.distvm.mpi.launch.proto.RankOutput;
import dev.distvm.mpi.launch.proto.StopJob;
import java.util.List;

/**
 * mpirun's and the daemons' protocol ({@code launch.proto}): every message as they decode it, and
 * a decoded launch through the daemon's checks, which run before anything starts and must answer
 * with a refusal or nothing, never fail.
 */
public final class LaunchMessagesFuzz {
    private static final ProtobufBodies BODIES = new ProtobufBodies(List.of(LaunchRank.parser(), Launched.parser(),
            RankOutput.parser(), RankExit.parser(), StopJob.parser()));

    private LaunchMessagesFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        BODIES.check(input);
        LaunchRank launch;
        try {
            launch = LaunchRank.parseFrom(input);
        } catch (InvalidProtocolBufferException e) {
            return;
        }
        Daemon.refusal(launch);
    }
}
