package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An ordered set of processes, named by their ranks in the world. A group's rank {@code i} is the
 * process {@code worldRanks[i]}.
 */
public class Group {
    private final int[] worldRanks;
    private final int myWorldRank;

    Group(int[] worldRanks, int myWorldRank) {
        this.worldRanks = worldRanks;
        this.myWorldRank = myWorldRank;
    }

    int worldRank(int rank) {
        return worldRanks[rank];
    }

    /** This group's rank of a world rank, or {@code MPI.UNDEFINED}. */
    int rankOfWorld(int worldRank) {
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    int[] worldRanks() {
        return worldRanks.clone();
    }

    int myWorldRank() {
        return myWorldRank;
    }

    public int Size() throws MPIException {
        return worldRanks.length;
    }

    /** The caller's rank in this group, or {@code MPI.UNDEFINED} when it is not a member. */
    public int Rank() throws MPIException {
        return rankOfWorld(myWorldRank);
    }

    public void Free() throws MPIException {
        // groups hold no resources
    }

    /** The ranks in {@code group2} of the processes that have {@code ranks1} in {@code group1}. */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] translated = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            translated[i] = ranks1[i] == MPI.PROC_NULL ? MPI.PROC_NULL
                    : group2.rankOfWorld(group1.worldRank(group1.checkedRank(ranks1[i])));
        }
        return translated;
    }

    /** {@code MPI.IDENT} (same members, same order), {@code MPI.SIMILAR} (same members) or {@code MPI.UNEQUAL}. */
    public static int Compare(Group group1, Group group2) throws MPIException {
        if (Arrays.equals(group1.worldRanks, group2.worldRanks)) {
            return MPI.IDENT;
        }
        Set<Integer> one = group1.members();
        return one.equals(group2.members()) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** All of {@code group1}, then the members of {@code group2} not in {@code group1}. */
    public static Group Union(Group group1, Group group2) throws MPIException {
        Set<Integer> union = group1.members();
        union.addAll(group2.members());
        return group1.derived(union);
    }

    /** The members of {@code group1} that are also in {@code group2}, in {@code group1}'s order. */
    public static Group Intersection(Group group1, Group group2) throws MPIException {
        Set<Integer> intersection = group1.members();
        intersection.retainAll(group2.members());
        return group1.derived(intersection);
    }

    /** The members of {@code group1} that are not in {@code group2}, in {@code group1}'s order. */
    public static Group Difference(Group group1, Group group2) throws MPIException {
        Set<Integer> difference = group1.members();
        difference.removeAll(group2.members());
        return group1.derived(difference);
    }

    /** The members with the given ranks, in that order. */
    public Group Incl(int[] ranks) throws MPIException {
        Set<Integer> chosen = new LinkedHashSet<>();
        for (int rank : ranks) {
            if (!chosen.add(worldRank(checkedRank(rank)))) {
                throw new MPIException(MPI.ERR_RANK, "rank " + rank + " is named twice in Incl");
            }
        }
        return derived(chosen);
    }

    /** The members without the given ranks, in this group's order. */
    public Group Excl(int[] ranks) throws MPIException {
        Set<Integer> excluded = new LinkedHashSet<>();
        for (int rank : ranks) {
            if (!excluded.add(worldRank(checkedRank(rank)))) {
                throw new MPIException(MPI.ERR_RANK, "rank " + rank + " is named twice in Excl");
            }
        }
        Set<Integer> kept = members();
        kept.removeAll(excluded);
        return derived(kept);
    }

    /** {@code Incl} of the ranks of triplets (first, last, stride). */
    public Group Range_incl(int[][] ranges) throws MPIException {
        return Incl(expand(ranges));
    }

    /** {@code Excl} of the ranks of triplets (first, last, stride). */
    public Group Range_excl(int[][] ranges) throws MPIException {
        return Excl(expand(ranges));
    }

    private int[] expand(int[][] ranges) throws MPIException {
        List<Integer> ranks = new ArrayList<>();
        for (int[] range : ranges) {
            if (range.length != 3 || range[2] == 0) {
                throw new MPIException(MPI.ERR_ARG, "a range is (first, last, stride) with a stride that is not 0, got "
                        + Arrays.toString(range));
            }
            int first = checkedRank(range[0]);
            int last = range[1]; // a bound, not a rank: (5, 8, 2) in a group of 8 is 5 and 7 (MPI asks only that those be ranks)
            int stride = range[2];
            if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
                throw new MPIException(MPI.ERR_ARG, "range " + Arrays.toString(range) + " is empty in the direction of its stride");
            }
            for (int rank = first; stride > 0 ? rank <= last : rank >= last; rank += stride) {
                if (rank < 0 || rank >= worldRanks.length) {
                    throw new MPIException(MPI.ERR_RANK, "range " + Arrays.toString(range) + " gives rank " + rank
                            + ", which is not in this group of " + worldRanks.length);
                }
                ranks.add(rank);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).toArray();
    }

    int checkedRank(int rank) throws MPIException {
        if (rank < 0 || rank >= worldRanks.length) {
            throw new MPIException(MPI.ERR_RANK, "rank " + rank + " is not in this group of " + worldRanks.length);
        }
        return rank;
    }

    private Set<Integer> members() {
        Set<Integer> members = new LinkedHashSet<>();
        for (int rank : worldRanks) {
            members.add(rank);
        }
        return members;
    }

    private Group derived(Set<Integer> worldRanksInOrder) {
        return new Group(worldRanksInOrder.stream().mapToInt(Integer::intValue).toArray(), myWorldRank);
    }
}
