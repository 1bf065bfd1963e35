//! Sample Resource Rush bots, as strategies (the binaries in `src/bin/` run them).
//!
//! - [`greedy::Greedy`]: best value per tick of distance, always keeping time to finish.
//! - [`reference::Reference`]: plans a whole route (which items, in which order) and replans
//!   every tick; the course's reference for what a strong bot scores.

pub mod greedy;
pub mod reference;
pub mod plan_search;
pub mod planner;
pub mod relaxation;
