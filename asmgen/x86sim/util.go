package x86sim

import "sort"

func sortStrings(s []string) { sort.Strings(s) }
