// A property run's result as text and back: how a run made in a child
// process (os/children.h) reaches the parent that prints it.  Everything a
// table, a counterexample or a JSON document shows goes across; the replayed
// history (sampled_counterexample::hist) and the hint behind a hint failure do not:
// they feed only the proofs' re-judgement, which runs in the child.
#pragma once

#include <string>

#include "properties/runner.h"

namespace ptespec {

std::string to_wire(const property_result& r);
// Throws internal_error on text to_wire() did not write.
property_result result_from_wire(const std::string& text);

} // namespace ptespec
