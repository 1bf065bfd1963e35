//! `first-bot`: the example bot of bot-sdk's crate docs, the very file they show
//! (`bot-sdk/examples/first_bot.rs`): nearest affordable resource, then the final.

include!("../../../bot-sdk/examples/first_bot.rs");
