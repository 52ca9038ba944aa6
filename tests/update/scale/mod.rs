//! The big demo at scale: the 1 MB page, the 2,000-thread change request and the
//! 10,000-page tree, through the real sandbox.

mod page;
mod review;
mod tree;
