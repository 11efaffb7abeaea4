// Package all links every domain parthack ships, one import line each:
// each domain's package registers itself with the domains registry in
// its init.
package all

import (
	_ "github.com/parthack/parthack/tasks/tauair" // tau-bench airline
)
