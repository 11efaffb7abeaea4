// Package all links every domain parthack ships, one import line each:
// each domain's package registers itself with the domains registry in
// its init.
package all

import (
	_ "github.com/parthack/parthack/domains/bfcl"         // BFCL multi-turn
	_ "github.com/parthack/parthack/domains/tau2/airline" // tau2-bench airline
	_ "github.com/parthack/parthack/domains/tau2/retail"  // tau2-bench retail
	_ "github.com/parthack/parthack/domains/tau2/telecom" // tau2-bench telecom
	_ "github.com/parthack/parthack/domains/tauair"       // tau-bench airline
)
