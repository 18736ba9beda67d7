// A history in words: what an entry's flags are, what a call returned,
// where a hardware event landed, where a faulted call stopped.  Every
// printer of calls and events (test's counterexamples, explore's history,
// the demo, the JSON transcripts) says them in these words:
//
//   ptep_get(#0) -> 0x00f8000000080f43 (young+dirty, cont)
//   hw access to page #1 recorded in #14 (another entry of its run)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/call.h"
#include "model/history.h"

namespace ptespec {

// "none", "non-present", or the entry's access/dirty state ("old+clean",
// "young", "dirty", "young+dirty"), with ", cont" when it carries CONT.
std::string flags_text(std::uint64_t pte);

// What a call returned: "0x00f8000000080f43 (young+dirty, cont)", "young" or
// "old", "changed" or "unchanged"; "" for a call that returns nothing.
std::string result_text(const call_result& r);

// "hw write to page #1 recorded in #14", saying so when the entry it landed
// in is another entry of the page's run.
std::string hw_event_text(const hw_event& e);

// Where a call stopped outside the table, or the strategy's own check that
// stopped it.
std::string fault_text(const fault_step& f);

// `text` broken at spaces into lines of at most `width` columns (a word
// longer than that keeps its own line), the first indented by `indent`
// spaces, the rest by four more; ends in a newline.
std::string wrapped_text(const std::string& text, std::size_t indent, std::size_t width = 120);

// One primitive access: "read #3 = 0x...", "xchg #3: 0x... -> 0x...",
// "tlbi-range #0-#15".
std::string primitive_text(const primitive_step& p);

} // namespace ptespec
