//! The engines behind grfgen's sweeps and explorations, which the command line calls: the
//! grid of designs, the runner and its records, Slurm's job scripts, the tables and plots
//! (`sweep`); the fits, the search and the report (`explore`); and what every command shares
//! of output: its errors and exit statuses, files written whole or not at all, CSV, progress.

pub mod csv;
pub mod error;
pub mod explore;
pub mod output;
pub mod progress;
pub mod sweep;
