/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_WORKLOAD_H
#define TRAINING_WORKLOAD_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief The numerics of data-parallel training: what every island's parameters are and how a
 *        round of local steps changes them.
 *
 * One workload object is shared by the TrainingApplications of all islands (it holds every
 * island's parameter vector), so the helper can compute global figures after each round. The
 * base class is the virtual workload: sizes only, no parameters, zero cost.
 */
class TrainingWorkload : public Object
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    TrainingWorkload();
    ~TrainingWorkload() override;

    /**
     * \brief Prepare the islands' parameters.
     * \param islandCount N \param dimension parameters per island (model bytes / 4)
     */
    virtual void Initialise(uint32_t islandCount, uint32_t dimension);
    /** \return true if the workload holds real parameters (real payload mode) */
    virtual bool IsReal() const;
    /** \return the number of islands */
    uint32_t GetIslandCount() const;
    /** \return parameters per island */
    uint32_t GetDimension() const;

    /**
     * \brief Run the island's inner steps of one round (the compute phase's numerics).
     * \param island the island \param round the training round
     * \param innerSteps the round's inner steps (the application's InnerSteps)
     */
    virtual void LocalUpdate(uint32_t island, uint32_t round, uint32_t innerSteps);
    /**
     * \param island an island \param x a parameter vector
     * \return the island's local objective at \p x (0 for the virtual workload)
     */
    virtual double Loss(uint32_t island, const std::vector<double>& x) const;
    /** \param island an island \return its parameters (empty for the virtual workload) */
    const std::vector<double>& GetParameters(uint32_t island) const;
    /** \param island an island \param x its new parameters (size GetDimension()) */
    void SetParameters(uint32_t island, const std::vector<double>& x);

    /**
     * \return true if every island holds island 0's parameters (before training: they start
     *         from one model, as DiLoCo's replicas do)
     */
    bool AreIslandsTogether() const;
    /** \return the mean of all islands' parameters */
    std::vector<double> GetMeanParameters() const;
    /**
     * \return the global loss: the mean over islands of each island's objective at the mean
     *         parameters (what a model averaged now would score on all data)
     */
    double GetGlobalLoss() const;
    /**
     * \return the consensus distance: sqrt(1/N sum_i ||x_i - mean||^2 / dimension), the RMS
     *         distance of the islands' parameters from their mean, per coordinate
     */
    double GetConsensusDistance() const;

  protected:
    void DoDispose() override;

    uint32_t m_islandCount;                    //!< N
    uint32_t m_dimension;                      //!< parameters per island
    std::vector<std::vector<double>> m_params; //!< [island] parameters (real workloads)
};

/**
 * \ingroup wan-training
 * \brief A real workload: island i minimises a separable quadratic with its own centre,
 *        f_i(x) = 1/(2D) sum_d a_{i,d} (x_d - c_{i,d})^2 (D the dimension), by gradient steps
 *        on the sum (optionally noisy): LocalSteps of them per inner step.
 *
 * Curvatures a in [CurvatureMin, CurvatureMax], centres c in [-CentreSpread, CentreSpread] and
 * the initial parameters in [-InitialSpread, InitialSpread] (island 0's for all with SharedStart)
 * are drawn from a generator seeded
 * by Seed and the island index, so runs are reproducible and independent of the simulator's
 * random streams. The islands' optima differ, so local steps pull the islands apart and
 * averaging pulls them together: the global optimum is sum_i a_i c_i / sum_i a_i.
 */
class QuadraticTrainingWorkload : public TrainingWorkload
{
  public:
    /** \brief Get the type ID. \return the object TypeId */
    static TypeId GetTypeId();
    QuadraticTrainingWorkload();
    ~QuadraticTrainingWorkload() override;

    void Initialise(uint32_t islandCount, uint32_t dimension) override;
    bool IsReal() const override;
    void LocalUpdate(uint32_t island, uint32_t round, uint32_t innerSteps) override;
    double Loss(uint32_t island, const std::vector<double>& x) const override;

    /**
     * \return a bound on |x| every island's parameters keep: each step moves x_d - c_d to
     *         (1 - eta a)(x_d - c_d), which never grows for eta a <= 2, and averages stay within
     *         the islands' values; so |x| <= InitialSpread + 2 CentreSpread, and
     *         max(InitialSpread, CentreSpread) when eta CurvatureMax <= 1 (no overshoot).
     *         Without noise; a fixed-point Scale of MaxValue / this fits every parameter.
     */
    double GetParameterBound() const;
    /** \param island an island \return its centre c_i */
    const std::vector<double>& GetCentre(uint32_t island) const;
    /** \param island an island \return its curvatures a_i */
    const std::vector<double>& GetCurvature(uint32_t island) const;

  private:
    uint32_t m_localSteps;                        //!< gradient steps per inner step
    double m_learningRate;                        //!< step size
    double m_noise;                               //!< std. dev. of gradient noise
    double m_initialSpread;                       //!< initial parameters' half range
    bool m_sharedStart;                           //!< all islands start at island 0's draw
    double m_centreSpread;                        //!< centres' half range
    double m_curvatureMin;                        //!< smallest curvature
    double m_curvatureMax;                        //!< largest curvature
    uint64_t m_seed;                              //!< generator seed
    std::vector<std::vector<double>> m_centre;    //!< [island] c_i
    std::vector<std::vector<double>> m_curvature; //!< [island] a_i
};

} // namespace ns3

#endif /* TRAINING_WORKLOAD_H */
