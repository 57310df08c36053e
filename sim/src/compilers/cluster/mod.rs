//! The clustered file's compiler (SPEC S4): virtual registers partitioned among the clusters,
//! then allocated to each cluster's local file and the main file, end to end.

pub mod allocate;
pub mod compile;
pub mod partition;

pub use allocate::{allocate, Allocation, MainFileFull, Physical};
pub use compile::{compile, compile_report, CompileReport, Compiler};
pub use partition::{baseline, live_ranges, partition, LiveRange, Partitioned};
