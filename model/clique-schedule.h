/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_H
#define CLIQUE_SCHEDULE_H

#include "clique-mixing.h"
#include "update-format.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief How the members of one clique exchange their updates.
 */
enum class SyncAlgorithm
{
    DIRECT, //!< every member sends its whole update to every peer (multicast / FPGA aware)
    RING,   //!< ring all-reduce: 2(k-1) steps of M/k bytes to the ring successor
    TREE,   //!< reduction tree: every member sends its update up the unicast routes to a root
            //!< island (transit FPGAs on the way add them up), the root sends the sum down
};

/** The algorithms' names as messages list them: "direct", "ring" or "tree". */
extern const char SYNC_ALGORITHM_NAMES[];

/**
 * \param algorithm an algorithm \return "direct", "ring" or "tree"
 */
std::string SyncAlgorithmToString(SyncAlgorithm algorithm);
/**
 * \param os a stream \param algorithm an algorithm \return \p os, after "direct", "ring" or "tree"
 */
std::ostream& operator<<(std::ostream& os, SyncAlgorithm algorithm);
/**
 * \brief Parse "direct", "ring" or "tree".
 * \param text the name \param what where the text came from, for the error message
 * \return the algorithm \throws std::runtime_error naming \p what and \p text
 */
SyncAlgorithm SyncAlgorithmFromString(const std::string& text, const std::string& what);

/**
 * \ingroup wan-training
 * \brief A periodic synchronisation schedule of rotating cliques, and its mixing math.
 *
 * The schedule is a list of T rounds; round r of training uses partition r mod T. Every
 * partition covers the islands 0..N-1 exactly once. Each clique carries the algorithm its
 * members use (DIRECT unless set). Partitions are stored in a canonical form: members of a
 * clique ascending, cliques ordered by their smallest member, so equal schedules compare
 * equal and a clique's index within its round is well defined (it is the clique number carried
 * in packets).
 *
 * Averaging within a clique of k islands is the block J_k/k of the mixing matrix W_t of the
 * round; one period contracts disagreement by rho = ||W_T...W_1 - J||_2 (J = 11^T/N). The
 * math is CliqueMixing's and the file format CliqueScheduleFile's.
 *
 * Plain data (no simulator objects): copy it freely.
 */
class CliqueSchedule
{
  public:
    /** Returned by GetRoundsToEpsilon() when the schedule never reaches epsilon. */
    static constexpr uint64_t UNREACHABLE = CliqueMixing::UNREACHABLE;
    /** Default cap on the rounds walked by GetRoundsToEpsilon(). */
    static constexpr uint64_t DEFAULT_MAX_ROUNDS = 100000;

    /** An empty schedule (no islands, no rounds). */
    CliqueSchedule();
    /**
     * \brief Build and validate a schedule; every clique uses DIRECT.
     * \param islandCount N
     * \param rounds the partitions, one per round of the period
     * \param name a display name
     * \throws std::runtime_error naming the round and island if a partition is invalid
     */
    CliqueSchedule(uint32_t islandCount,
                   const std::vector<Partition>& rounds,
                   const std::string& name = "");

    /** \return N, the number of islands */
    uint32_t GetIslandCount() const;
    /** \return T, the number of rounds in one period */
    uint32_t GetPeriod() const;
    /** \return the partitions of one period (canonical form) */
    const std::vector<Partition>& GetRounds() const;
    /** \param round a training round (any value) \return its partition (round mod T) */
    const Partition& GetPartition(uint64_t round) const;
    /**
     * \param round a training round \param island an island
     * \return the index of the island's clique within the round's partition
     */
    uint32_t GetCliqueIndex(uint64_t round, uint32_t island) const;
    /** \param round a training round \param island an island \return the island's clique */
    const Clique& GetClique(uint64_t round, uint32_t island) const;
    /**
     * \param round a training round \param clique a clique index within the round
     * \return the algorithm that clique uses
     */
    SyncAlgorithm GetAlgorithm(uint64_t round, uint32_t clique) const;
    /** \param round a training round \return the algorithm of each clique of the round */
    const std::vector<SyncAlgorithm>& GetAlgorithms(uint64_t round) const;
    /**
     * \brief Set the algorithms of one round of the period.
     * \param periodRound index within the period, 0..T-1
     * \param algorithms one per clique, in canonical clique order
     * \throws std::runtime_error if the index or the count is wrong
     */
    void SetAlgorithms(uint32_t periodRound, const std::vector<SyncAlgorithm>& algorithms);
    /**
     * \param round a training round
     * \return the update format the round's cliques exchange in, if the schedule names one
     *         (a schedule file's "format"); else none: the run's (UpdateFormat attributes)
     */
    const std::optional<UpdateFormat>& GetFormat(uint64_t round) const;
    /**
     * \brief Name the update format of one round of the period.
     * \param periodRound index within the period, 0..T-1 \param format the format
     * \throws std::runtime_error if the index is wrong
     */
    void SetFormat(uint32_t periodRound, const UpdateFormat& format);
    /** \return true if some round of the period names its update format */
    bool HasFormats() const;
    /** \return the schedule's name */
    const std::string& GetName() const;
    /** \param name the schedule's name */
    void SetName(const std::string& name);
    /** \return the sizes of the cliques of each round, e.g. "3+3+3 / 3+3+3" */
    std::string DescribeCliqueSizes() const;

    /**
     * \brief Check a partition of N islands.
     * \param islandCount N \param partition the partition
     * \param where prefix for the error message, e.g. "schedule round 2"
     * \throws std::runtime_error naming \p where and the island that is missing, duplicated
     *         or out of range, or an empty clique
     */
    static void ValidatePartition(uint32_t islandCount,
                                  const Partition& partition,
                                  const std::string& where);
    /**
     * \param partition a valid partition \return its canonical form (members ascending,
     *        cliques ordered by smallest member)
     */
    static Partition Canonical(const Partition& partition);

    /** \param periodRound index within the period \return W_t, block diagonal with J_k/k */
    DenseMatrix GetMixingMatrix(uint32_t periodRound) const;
    /** \return the product W_T ... W_1 of one period */
    DenseMatrix GetPeriodProduct() const;
    /** \return rho = ||W_T ... W_1 - J||_2, the contraction of one period */
    double GetContraction() const;
    /**
     * \brief True if the union of all cliques of one period connects all islands; exactly the
     *        condition for rho < 1 (otherwise the schedule never mixes).
     * \return whether the schedule mixes
     */
    bool IsMixing() const;
    /**
     * \brief The smallest R with ||W_R ... W_1 - J||_2 <= epsilon, walking the periodic
     *        schedule from round 0.
     * \param epsilon the target, > 0
     * \param maxRounds give up after this many rounds
     * \return R, or UNREACHABLE if the schedule does not mix or needs more than \p maxRounds
     */
    uint64_t GetRoundsToEpsilon(double epsilon, uint64_t maxRounds = DEFAULT_MAX_ROUNDS) const;

    /** \param other a schedule \return true if islands, rounds and algorithms are equal */
    bool operator==(const CliqueSchedule& other) const;

    /// \name Baseline schedules
    /// @{
    /** \param n islands \return one round, one clique of all islands ("global-clique") */
    static CliqueSchedule GlobalClique(uint32_t n);
    /**
     * \brief Moshpit SGD grid averaging: rows, then columns.
     *
     * If N = r x c with r the largest divisor of N not above sqrt(N) and r > 1, the grid is
     * exact (the global average after 2 rounds). For prime N >= 5 the grid is near-square with
     * c = ceil(sqrt(N)) columns and a shorter last row: it mixes but is not exact. For N <= 3
     * it is the global clique.
     * \param n islands \return the schedule ("moshpit-grid")
     */
    static CliqueSchedule MoshpitGrid(uint32_t n);
    /**
     * \brief Gossip in pairs: the rounds of a round-robin tournament (circle method), so every
     *        pair of islands meets exactly once per period. For odd N a dummy island is added
     *        and its partner sits out the round as a singleton clique.
     * \param n islands \return the schedule ("gossip-pairs"), period N-1 (even N) or N (odd N)
     */
    static CliqueSchedule GossipPairs(uint32_t n);
    /**
     * \brief One-peer exponential graph: in round t island i pairs with i XOR 2^t.
     *
     * XOR keeps the pairing symmetric, so each round is a partition; when the partner index is
     * N or more (N not a power of 2) the island is a singleton that round. Period
     * ceil(log2 N); exact in log2 N rounds only for N a power of 2.
     * \param n islands \return the schedule ("one-peer-exponential")
     */
    static CliqueSchedule OnePeerExponential(uint32_t n);
    /// @}

  private:
    uint32_t m_islandCount;                               //!< N
    std::vector<Partition> m_rounds;                      //!< the period, canonical
    std::vector<std::vector<SyncAlgorithm>> m_algorithms; //!< [round][clique]
    std::vector<std::optional<UpdateFormat>> m_formats;   //!< [round]: named, or the run's
    std::vector<std::vector<uint32_t>> m_cliqueOf;        //!< [round][island] -> clique index
    std::string m_name;                                   //!< display name
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_H */
