/**
 * MPI test programs for the environment: initialization, groups, attributes, error handlers,
 * packing and ending a job.
 */
package mpitest.environment;
