//! Solver.
