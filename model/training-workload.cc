/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-workload.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingWorkload");

NS_OBJECT_ENSURE_REGISTERED(TrainingWorkload);
NS_OBJECT_ENSURE_REGISTERED(QuadraticTrainingWorkload);

namespace
{

/** Odd multiplier that spreads (seed, island, round) into distinct generator seeds. */
constexpr uint64_t SEED_MIX = 0x9E3779B97F4A7C15ULL;
/** Salt of the generator that draws an island's problem (centre, curvature, start). */
constexpr uint64_t PROBLEM_SALT = 1;
/** Salt of the generator that draws gradient noise. */
constexpr uint64_t NOISE_SALT = 2;

/**
 * \param seed the workload seed \param salt which generator \param a first index
 * \param b second index \return a generator seed unique to the arguments
 */
uint64_t
MixSeed(uint64_t seed, uint64_t salt, uint64_t a, uint64_t b)
{
    NS_LOG_FUNCTION(seed << salt << a << b);
    uint64_t h = seed;
    h = h * SEED_MIX + salt;
    h = h * SEED_MIX + a;
    h = h * SEED_MIX + b;
    return h ^ (h >> 31);
}

const std::vector<double> EMPTY_VECTOR; //!< parameters of a virtual workload

} // namespace

// ---------------------------------------------------------------------------------------------
// TrainingWorkload

TypeId
TrainingWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrainingWorkload")
                            .SetParent<Object>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<TrainingWorkload>();
    return tid;
}

TrainingWorkload::TrainingWorkload()
    : m_islandCount(0),
      m_dimension(0)
{
    NS_LOG_FUNCTION(this);
}

TrainingWorkload::~TrainingWorkload() = default;

void
TrainingWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_params.clear();
    Object::DoDispose();
}

void
TrainingWorkload::Initialise(uint32_t islandCount, uint32_t dimension)
{
    NS_LOG_FUNCTION(this << islandCount << dimension);
    m_islandCount = islandCount;
    m_dimension = dimension;
    m_params.clear();
}

bool
TrainingWorkload::IsReal() const
{
    NS_LOG_FUNCTION(this);
    return false;
}

uint32_t
TrainingWorkload::GetIslandCount() const
{
    NS_LOG_FUNCTION(this);
    return m_islandCount;
}

uint32_t
TrainingWorkload::GetDimension() const
{
    NS_LOG_FUNCTION(this);
    return m_dimension;
}

void
TrainingWorkload::LocalUpdate(uint32_t island, uint32_t round, uint32_t innerSteps)
{
    NS_LOG_FUNCTION(this << island << round << innerSteps);
}

double
TrainingWorkload::Loss(uint32_t island, const std::vector<double>& x) const
{
    NS_LOG_FUNCTION(this << island);
    return 0;
}

const std::vector<double>&
TrainingWorkload::GetParameters(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    if (island >= m_params.size())
    {
        return EMPTY_VECTOR;
    }
    return m_params[island];
}

void
TrainingWorkload::SetParameters(uint32_t island, const std::vector<double>& x)
{
    NS_LOG_FUNCTION(this << island);
    NS_ABORT_MSG_IF(island >= m_params.size(), "SetParameters: island " << island);
    NS_ABORT_MSG_IF(x.size() != m_dimension, "SetParameters: dimension " << x.size());
    m_params[island] = x;
}

std::vector<double>
TrainingWorkload::GetMeanParameters() const
{
    NS_LOG_FUNCTION(this);
    std::vector<double> mean(m_params.empty() ? 0 : m_dimension, 0.0);
    for (const auto& x : m_params)
    {
        for (uint32_t d = 0; d < mean.size(); ++d)
        {
            mean[d] += x[d];
        }
    }
    for (double& v : mean)
    {
        v /= m_params.size();
    }
    return mean;
}

double
TrainingWorkload::GetGlobalLoss() const
{
    NS_LOG_FUNCTION(this);
    if (m_params.empty())
    {
        return 0;
    }
    const std::vector<double> mean = GetMeanParameters();
    double sum = 0;
    for (uint32_t i = 0; i < m_islandCount; ++i)
    {
        sum += Loss(i, mean);
    }
    return sum / m_islandCount;
}

bool
TrainingWorkload::AreIslandsTogether() const
{
    NS_LOG_FUNCTION(this);
    return std::all_of(m_params.begin(), m_params.end(), [this](const std::vector<double>& x) {
        return x == m_params.front();
    });
}

double
TrainingWorkload::GetConsensusDistance() const
{
    NS_LOG_FUNCTION(this);
    if (m_params.empty() || m_dimension == 0)
    {
        return 0;
    }
    const std::vector<double> mean = GetMeanParameters();
    double sum = 0;
    for (const auto& x : m_params)
    {
        for (uint32_t d = 0; d < m_dimension; ++d)
        {
            const double e = x[d] - mean[d];
            sum += e * e;
        }
    }
    return std::sqrt(sum / (double(m_params.size()) * m_dimension));
}

// ---------------------------------------------------------------------------------------------
// QuadraticTrainingWorkload

TypeId
QuadraticTrainingWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::QuadraticTrainingWorkload")
            .SetParent<TrainingWorkload>()
            .SetGroupName("WanTraining")
            .AddConstructor<QuadraticTrainingWorkload>()
            .AddAttribute("LocalSteps",
                          "Gradient steps an island takes in one inner step (a round's compute "
                          "phase has the application's InnerSteps of them).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&QuadraticTrainingWorkload::m_localSteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LearningRate",
                          "Step size of the local gradient steps (stable below 2 / CurvatureMax).",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&QuadraticTrainingWorkload::m_learningRate),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("GradientNoise",
                          "Standard deviation of Gaussian noise added to each gradient "
                          "coordinate (0: full-batch gradient descent).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&QuadraticTrainingWorkload::m_noise),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("InitialSpread",
                          "Initial parameters are uniform in [-InitialSpread, InitialSpread].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&QuadraticTrainingWorkload::m_initialSpread),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("SharedStart",
                          "Every island starts from island 0's initial parameters (one model, "
                          "as DiLoCo's replicas do), not from its own draw.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&QuadraticTrainingWorkload::m_sharedStart),
                          MakeBooleanChecker())
            .AddAttribute("CentreSpread",
                          "Each island's optimum is uniform in [-CentreSpread, CentreSpread].",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&QuadraticTrainingWorkload::m_centreSpread),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("CurvatureMin",
                          "Smallest curvature a_{i,d}.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&QuadraticTrainingWorkload::m_curvatureMin),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("CurvatureMax",
                          "Largest curvature a_{i,d}.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&QuadraticTrainingWorkload::m_curvatureMax),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Seed",
                          "Seed of the islands' problems and of the gradient noise.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&QuadraticTrainingWorkload::m_seed),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

QuadraticTrainingWorkload::QuadraticTrainingWorkload()
    : m_localSteps(10),
      m_learningRate(0.05),
      m_noise(0),
      m_initialSpread(1),
      m_sharedStart(false),
      m_centreSpread(1),
      m_curvatureMin(0.5),
      m_curvatureMax(1.5),
      m_seed(1)
{
    NS_LOG_FUNCTION(this);
}

QuadraticTrainingWorkload::~QuadraticTrainingWorkload() = default;

void
QuadraticTrainingWorkload::Initialise(uint32_t islandCount, uint32_t dimension)
{
    NS_LOG_FUNCTION(this << islandCount << dimension);
    TrainingWorkload::Initialise(islandCount, dimension);
    m_params.assign(islandCount, std::vector<double>(dimension));
    m_centre.assign(islandCount, std::vector<double>(dimension));
    m_curvature.assign(islandCount, std::vector<double>(dimension));
    for (uint32_t i = 0; i < islandCount; ++i)
    {
        std::mt19937_64 gen(MixSeed(m_seed, PROBLEM_SALT, i, 0));
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        std::uniform_real_distribution<double> curvature(m_curvatureMin, m_curvatureMax);
        for (uint32_t d = 0; d < dimension; ++d)
        {
            m_centre[i][d] = m_centreSpread * unit(gen);
            m_curvature[i][d] = curvature(gen);
            m_params[i][d] = m_initialSpread * unit(gen);
        }
    }
    for (uint32_t i = 1; i < islandCount && m_sharedStart; ++i)
    {
        m_params[i] = m_params[0];
    }
}

bool
QuadraticTrainingWorkload::IsReal() const
{
    NS_LOG_FUNCTION(this);
    return true;
}

void
QuadraticTrainingWorkload::LocalUpdate(uint32_t island, uint32_t round, uint32_t innerSteps)
{
    NS_LOG_FUNCTION(this << island << round << innerSteps);
    NS_ABORT_MSG_IF(island >= m_params.size(), "LocalUpdate: island " << island);
    std::vector<double>& x = m_params[island];
    const std::vector<double>& a = m_curvature[island];
    const std::vector<double>& c = m_centre[island];
    std::mt19937_64 gen(MixSeed(m_seed, NOISE_SALT, island, round));
    std::normal_distribution<double> noise(0.0, 1.0);
    const uint64_t steps = uint64_t(m_localSteps) * innerSteps;
    for (uint64_t step = 0; step < steps; ++step)
    {
        for (uint32_t d = 0; d < m_dimension; ++d)
        {
            double g = a[d] * (x[d] - c[d]);
            if (m_noise > 0)
            {
                g += m_noise * noise(gen);
            }
            x[d] -= m_learningRate * g;
        }
    }
}

double
QuadraticTrainingWorkload::Loss(uint32_t island, const std::vector<double>& x) const
{
    NS_LOG_FUNCTION(this << island);
    NS_ABORT_MSG_IF(island >= m_centre.size(), "Loss: island " << island);
    double sum = 0;
    for (uint32_t d = 0; d < m_dimension && d < x.size(); ++d)
    {
        const double e = x[d] - m_centre[island][d];
        sum += 0.5 * m_curvature[island][d] * e * e;
    }
    // Per coordinate, so losses of different model sizes compare.
    return m_dimension > 0 ? sum / m_dimension : 0.0;
}

double
QuadraticTrainingWorkload::GetParameterBound() const
{
    NS_LOG_FUNCTION(this);
    if (m_learningRate * m_curvatureMax <= 1)
    {
        return std::max(m_initialSpread, m_centreSpread);
    }
    return m_initialSpread + 2 * m_centreSpread;
}

const std::vector<double>&
QuadraticTrainingWorkload::GetCentre(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return m_centre.at(island);
}

const std::vector<double>&
QuadraticTrainingWorkload::GetCurvature(uint32_t island) const
{
    NS_LOG_FUNCTION(this << island);
    return m_curvature.at(island);
}

} // namespace ns3
