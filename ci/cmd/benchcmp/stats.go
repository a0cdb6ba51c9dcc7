package main

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// confidence is the confidence level of the interval printed around each
// median, as benchstat uses by default.
const confidence = 0.95

// assumption is the statistical model: no assumption about the distribution
// of benchmark measurements, so the summary is the median with a
// distribution-free confidence interval and two samples are compared with
// the Mann-Whitney U test (benchstat's default).
var assumption = benchmath.AssumeNothing

// summary is one cell of a table: the measurements of one benchmark metric on
// one side and their median with its confidence interval.
type summary struct {
	sample  *benchmath.Sample
	summary benchmath.Summary
}

// summarize computes the summary of values. It does not modify values. It
// returns nil when there are no values.
func summarize(values []float64) *summary {
	if len(values) == 0 {
		return nil
	}
	// benchmath.NewSample sorts in place; keep the caller's run order.
	s := benchmath.NewSample(append([]float64(nil), values...), &benchmath.DefaultThresholds)
	return &summary{sample: s, summary: assumption.Summary(s, confidence)}
}

// warnings returns the warnings of the sample and of its summary (for
// example, too few samples for a confidence interval).
func (s *summary) warnings() []error {
	if s == nil {
		return nil
	}
	return append(append([]error(nil), s.sample.Warnings...), s.summary.Warnings...)
}

// comparison is one row of a table: a benchmark metric measured on a
// reference side (the base build, or the reference sub-benchmark in pair
// mode) and on a candidate side, and whether they differ beyond noise.
type comparison struct {
	label     string
	ref, cand *summary
	// cmp is valid when both ref and cand are present.
	cmp benchmath.Comparison
	// paired are the per-round speed-ups (pair mode; see pairedSpeedups).
	paired []float64
}

// compare summarizes ref and cand and tests whether they come from the same
// distribution. Either may be empty, when a benchmark exists on one side only.
func compare(label string, ref, cand []float64) comparison {
	c := comparison{label: label, ref: summarize(ref), cand: summarize(cand)}
	if c.ref != nil && c.cand != nil {
		c.cmp = assumption.Compare(c.ref.sample, c.cand.sample)
	}
	return c
}

// both reports whether the row has measurements on both sides.
func (c comparison) both() bool { return c.ref != nil && c.cand != nil }

// significant reports whether the difference between the sides is beyond
// noise at the threshold alpha (0.05).
func (c comparison) significant() bool { return c.both() && c.cmp.P <= c.cmp.Alpha }

// delta formats the change from ref to cand the way benchstat does: "~" when
// the difference is not significant, else the signed percentage.
func (c comparison) delta() string {
	if !c.both() {
		return ""
	}
	return c.cmp.FormatDelta(c.ref.summary.Center, c.cand.summary.Center)
}

// speedup returns how many times better the candidate is than the reference
// for a metric whose direction is dir (+1 higher is better, -1 lower is
// better, as benchfmt.UnitMetadataMap.GetBetter says): ref/cand when lower is
// better, cand/ref when higher is better. ok is false when dir is 0 or the
// ratio is undefined (a zero or negative center).
func speedup(ref, cand float64, dir int) (x float64, ok bool) {
	if ref == cand {
		return 1, dir != 0
	}
	if ref <= 0 || cand <= 0 {
		return 0, false
	}
	switch dir {
	case -1:
		return ref / cand, true
	case 1:
		return cand / ref, true
	}
	return 0, false
}

// pairedSpeedups returns the speed-up of each round, ref[i] against cand[i]
// (see speedup). In pair mode both were measured in round i by the same run
// of the test binary, moments apart, so their ratio cancels the slow drifts
// of a shared host that widen each side's own spread. It returns nil when
// the sides have different counts (the rounds cannot be matched) or a ratio
// is undefined.
func pairedSpeedups(ref, cand []float64, dir int) []float64 {
	if len(ref) == 0 || len(ref) != len(cand) {
		return nil
	}
	xs := make([]float64, len(ref))
	for i := range ref {
		x, ok := speedup(ref[i], cand[i], dir)
		if !ok {
			return nil
		}
		xs[i] = x
	}
	return xs
}

// quartiles returns the first quartile, the median and the third quartile
// of xs (not empty), interpolating linearly between order statistics.
func quartiles(xs []float64) (q1, med, q3 float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	at := func(q float64) float64 {
		pos := q * float64(len(s)-1)
		i := int(pos)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		f := pos - float64(i)
		return s[i]*(1-f) + s[i+1]*f
	}
	return at(0.25), at(0.5), at(0.75)
}

// formatPaired formats per-round speed-ups as their median and quartiles,
// "1.12x (1.05–1.18)".
func formatPaired(xs []float64) string {
	q1, med, q3 := quartiles(xs)
	return fmt.Sprintf("%.2fx (%.2f–%.2f)", med, q1, q3)
}

// formatSpeedup formats a speed-up factor as "1.67x".
func formatSpeedup(x float64) string {
	return fmt.Sprintf("%.2fx", x)
}

// geomean returns the geometric mean of xs, and false if xs is empty or
// holds a value that is not positive.
func geomean(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	var sum float64
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0, false
		}
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs))), true
}
