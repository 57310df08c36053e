//! The compilers that prepare the programs the golden models and the hardware run, apart from
//! the models: the core's bank-aware register allocation, the clustered file's partitioning and
//! allocation, and the pool allocator's register-release analysis.

pub mod cluster;
pub mod core_allocate;
pub mod release;
