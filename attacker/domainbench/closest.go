package domainbench

import (
	"slices"
	"strings"
)

// closest orders names by their edit distance to name, nearest first
// (ties alphabetically), so that a misspelt name's intended one leads.
func closest(name string, names []string) []string {
	out := slices.Clone(names)
	dist := make(map[string]int, len(out))
	for _, n := range out {
		dist[n] = editDistance(name, n)
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if d := dist[a] - dist[b]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
