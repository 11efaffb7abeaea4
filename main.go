// Command parthack is a terminal workbench and headless CLI for certified
// equal-progress stress tests of partial-credit evaluators of tool-using
// agents. See README.md.
package main

import (
	"os"

	"github.com/parthack/parthack/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
