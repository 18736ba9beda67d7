// Test caller plugin "test-batch-past-folio": the caller negative control
// (tests/mm/batch_past_folio.h) loaded as a plugin, so the command line's
// caller-rule verdicts are tested on a caller ptespec does not ship.
#include "impl/plugin_api.h"
#include "tests/mm/batch_past_folio.h"

PTESPEC_CALLER_PLUGIN(ptespec::controls::batch_past_folio, "test-batch-past-folio",
		      "negative control: folio_pte_batch counts one entry past the folio's end");
