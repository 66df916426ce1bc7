/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_H
#define WAN_TOPOLOGY_H

#include "wan-capabilities.h"
#include "wan-input-error.h"
#include "wan-queue-spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** \ingroup wan-training \brief One city: one WAN router, optionally an FPGA per island. */
struct WanCity
{
    std::string code;     //!< short unique code, e.g. "NYC"
    std::string name;     //!< display name, e.g. "New York"
    double latitude{0};   //!< degrees, [-90, 90]
    double longitude{0};  //!< degrees, [-180, 180]
    WanCapabilities caps; //!< multicast / FPGA capability
};

/** \ingroup wan-training \brief One compute island: a host attached to its city's router. */
struct WanIsland
{
    std::string name;      //!< unique name, e.g. "NYC-0"
    uint32_t city{0};      //!< index into the city list
    uint64_t accessBps{0}; //!< access link rate, bits per second (egress and ingress each)
    double accessDelay{0}; //!< access link one-way propagation delay, seconds
};

/** \ingroup wan-training \brief One full-duplex point-to-point WAN link between two cities. */
struct WanLink
{
    uint32_t a{0};   //!< city index of one end
    uint32_t b{0};   //!< city index of the other end
    uint64_t bps{0}; //!< rate in each direction, bits per second
    double delay{0}; //!< one-way propagation delay, seconds
};

/**
 * \ingroup wan-training
 * \brief The description of a WAN: cities, islands, links and capabilities.
 *
 * Pure data, no simulator objects: WanTopologyHelper builds nodes and devices from it and
 * SyncCostModel estimates on it. Read from JSON (see doc/wan-training.rst for the format) or
 * built in code with AddCity/AddIsland/AddLink. Cities, islands and links keep the order in
 * which they were added; indices are stable.
 */
class WanTopology
{
  public:
    /** Speed of light in fibre used for default delays: c / 1.468, in km per second. */
    static constexpr double FIBRE_KM_PER_S = 299792.458 / 1.468;
    /**
     * Largest link or access delay, seconds: far above any physical link (the Moon is 1.3
     * light-seconds away), and sums of it over 1024 hops and many rounds stay far inside the
     * range of ns-3's Time.
     */
    static constexpr double MAX_DELAY = 1000;
    /** Largest route factor: fibre routes are 1.2 to 2 times the great circle. */
    static constexpr double MAX_ROUTE_FACTOR = 100;
    /** Most islands: the contributor bitmap of a GradientHeader (IslandBitmap::MAX_ISLANDS). */
    static constexpr uint32_t MAX_ISLANDS = 1024;

    WanTopology() = default;

    /**
     * \brief Add a city. \param city the city \return its index
     * \throws WanTopologyError for a duplicate code, a code or name that breaks the name rule
     *         (WanJsonInput::NameProblem) or coordinates out of range
     */
    uint32_t AddCity(const WanCity& city);
    /**
     * \brief Add an island. \param island the island \return its index
     * \throws WanTopologyError for an unknown city, a duplicate or invalid name, a non-positive
     *         rate, a delay outside [0, MAX_DELAY] or more than MAX_ISLANDS islands
     */
    uint32_t AddIsland(const WanIsland& island);
    /**
     * \brief Add a link. \param link the link \return its index
     * \throws WanTopologyError for an unknown city, a self-link, a duplicate link, a
     *         non-positive rate or a delay outside [0, MAX_DELAY]
     */
    uint32_t AddLink(const WanLink& link);
    /**
     * \brief Check the whole topology: at least one island, every island reaches every other.
     * \throws WanTopologyError naming the problem
     */
    void Validate() const;

    /** \brief Set every city's capabilities. \param caps the capability set */
    void SetCapabilities(const WanCapabilities& caps);
    /**
     * \brief A copy with every WAN link and/or every access link at a new rate (a flag such
     *        as --accessBandwidth), queues and everything else kept.
     * \param wanBps new rate of every WAN link, bit/s (0: keep each link's)
     * \param accessBps new rate of every access link, bit/s (0: keep each island's)
     * \return the copy
     */
    WanTopology WithRates(uint64_t wanBps, uint64_t accessBps) const;
    /**
     * \brief Apply per-city overrides such as "NYC:none,SIN:multicast".
     * \param overrides comma-separated CODE:capability-set pairs
     * \throws WanTopologyError naming the unknown city or capability set
     */
    void ApplyCityCapabilities(const std::string& overrides);

    /**
     * \brief Set every queue: every link's, every access link's and the default.
     * \param queue the spec
     */
    void SetQueue(const WanQueueSpec& queue);
    /**
     * \brief Set the queue that links and islands get when added (the file's defaults), and
     *        that transit FPGAs' in-box links and hosts attached later get.
     * \param queue the spec
     */
    void SetDefaultQueue(const WanQueueSpec& queue);
    /**
     * \brief Set the transmit queues at both ends of one WAN link.
     * \param link a link index \param queue the spec \throws WanTopologyError if out of range
     */
    void SetLinkQueue(uint32_t link, const WanQueueSpec& queue);
    /**
     * \brief Set the transmit queues at both ends of one island's access link (and of its
     *        FPGA's in-box link).
     * \param island an island index \param queue the spec
     * \throws WanTopologyError if out of range
     */
    void SetIslandQueue(uint32_t island, const WanQueueSpec& queue);
    /** \param link a link index \return its queue spec */
    const WanQueueSpec& GetLinkQueue(uint32_t link) const;
    /** \param island an island index \return its access link's queue spec */
    const WanQueueSpec& GetIslandQueue(uint32_t island) const;
    /** \return the default queue (SetDefaultQueue; WanQueueSpec::DEFAULT unless set) */
    const WanQueueSpec& GetDefaultQueue() const;
    /**
     * \return true if some queue differs from the built-in WanQueueSpec::DEFAULT: the file's
     *         queue keys, --queue or a Set*Queue call chose it
     */
    bool HasChosenQueues() const;

    /** \return the topology's name (from the file, or "") */
    const std::string& GetName() const;
    /** \param name the topology's name */
    void SetName(const std::string& name);
    /** \return the cities */
    const std::vector<WanCity>& GetCities() const;
    /** \return the islands */
    const std::vector<WanIsland>& GetIslands() const;
    /** \return the links */
    const std::vector<WanLink>& GetLinks() const;
    /** \param code a city code \return its index \throws WanTopologyError if unknown */
    uint32_t GetCityIndex(const std::string& code) const;

    /**
     * \brief Great-circle distance on a sphere of radius 6371 km (haversine formula).
     * \param lat1 latitude of the first point, degrees
     * \param lon1 longitude of the first point, degrees
     * \param lat2 latitude of the second point, degrees
     * \param lon2 longitude of the second point, degrees
     * \return the distance in km
     */
    static double GreatCircleKm(double lat1, double lon1, double lat2, double lon2);
    /**
     * \brief Default one-way delay of a link between two cities.
     * \param a first city index \param b second city index
     * \param routeFactor ratio of the real fibre route to the great circle (1.3 by default)
     * \return great-circle distance / (c / 1.468) x routeFactor, in seconds
     */
    double DefaultLinkDelay(uint32_t a, uint32_t b, double routeFactor) const;

    /**
     * \brief Apply per-city overrides, naming \p what (e.g. a flag) in error messages.
     * \param overrides comma-separated CODE:capability-set pairs ("" changes nothing)
     * \param what where the text came from, e.g. "--cityCapabilities"
     * \throws WanTopologyError naming \p what, the unknown city or capability set
     */
    void ApplyCityCapabilities(const std::string& overrides, const std::string& what);

    /** \return the topology's description (from the file, or "") */
    const std::string& GetDescription() const;
    /** \param description the topology's description */
    void SetDescription(const std::string& description);
    /** \return the name used in error messages: the file path, or "WanTopology" */
    const std::string& GetSource() const;
    /** \param source the name to use in error messages */
    void SetSource(const std::string& source);

    /**
     * \brief The range rule of link and access delays.
     * \param seconds a delay \return "" if finite and in [0, MAX_DELAY], else what is wrong
     */
    static std::string DelayProblem(double seconds);

    /** \copydoc WanUnits::ParseRate */
    static uint64_t ParseRate(const std::string& text, const std::string& what);
    /** \copydoc WanUnits::ParseDelay */
    static double ParseDelay(const std::string& text, const std::string& what);
    /** \copydoc WanUnits::FormatRate */
    static std::string FormatRate(uint64_t bps);

  private:
    /**
     * \brief Throw a WanTopologyError "source: field: value: problem".
     * \param field the field path, e.g. "links[3].bandwidth"
     * \param value the offending value as it should be quoted
     * \param problem what is wrong with it
     */
    [[noreturn]] void Fail(const std::string& field,
                           const std::string& value,
                           const std::string& problem) const;
    /**
     * \brief Throw unless \p name follows the name rule (WanJsonInput::NameProblem).
     * \param field the field path \param name the name
     */
    void CheckName(const std::string& field, const std::string& name) const;
    /**
     * \brief Throw unless \p seconds follows DelayProblem's rule.
     * \param field the field path \param seconds the delay
     */
    void CheckDelay(const std::string& field, double seconds) const;
    /** \param index a city index \return its code, or the index as text if out of range */
    std::string CityLabel(uint32_t index) const;

    std::string m_source{"WanTopology"};      //!< name used in error messages
    std::string m_description;                //!< free-text description
    std::string m_name;                       //!< topology name
    std::vector<WanCity> m_cities;            //!< cities, by index
    std::vector<WanIsland> m_islands;         //!< islands, by index
    std::vector<WanLink> m_links;             //!< links, by index
    WanQueueSpec m_defaultQueue;              //!< what links and islands get when added
    std::vector<WanQueueSpec> m_linkQueues;   //!< per link, its queues
    std::vector<WanQueueSpec> m_islandQueues; //!< per island, its access link's queues
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_H */
