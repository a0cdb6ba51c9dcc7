package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// screenshotEnv set to 1 makes TestChartScreenshots fail, rather than skip,
// when no Chromium is installed; ci/test sets it after installing Debian's
// chromium package. VG_CHART_SCREENSHOT_DIR, when set, keeps the PNGs there.
const (
	screenshotEnv    = "VG_CHART_SCREENSHOT"
	screenshotDirEnv = "VG_CHART_SCREENSHOT_DIR"
)

// TestChartScreenshots renders every committed chart (ci/results/*/*.svg)
// in headless Chromium and checks the picture: the SVG's size, a white
// background, and each series' colour drawn on a visible number of pixels,
// so that a chart whose lines do not render (a broken path, an unknown
// attribute, text over everything) fails.
func TestChartScreenshots(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		if os.Getenv(screenshotEnv) == "1" {
			t.Fatalf("%s=1 but no chromium on PATH (Debian: apt-get install chromium)", screenshotEnv)
		}
		t.Skipf("no chromium on PATH; set %s=1 to require it (ci/test does)", screenshotEnv)
	}
	files, err := filepath.Glob("../../results/*/*.svg")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no committed charts")
	outDir := os.Getenv(screenshotDirEnv)
	if outDir == "" {
		outDir = t.TempDir()
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			svg, err := os.ReadFile(f)
			require.NoError(t, err)
			abs, err := filepath.Abs(f)
			require.NoError(t, err)
			shot := filepath.Join(outDir, filepath.Base(filepath.Dir(f))+"-"+filepath.Base(f)+".png")
			cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
				fmt.Sprintf("--window-size=%d,%d", chartW, chartH), "--screenshot="+shot, "file://"+abs)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // a profile of its own
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			pf, err := os.Open(shot)
			require.NoError(t, err)
			defer pf.Close()
			img, err := png.Decode(pf)
			require.NoError(t, err)
			b := img.Bounds()
			require.Equal(t, image.Rect(0, 0, chartW, chartH), b, "screenshot size")
			counts := colourCounts(img)
			assert.Greater(t, counts[[3]uint8{255, 255, 255}], chartW*chartH/2, "mostly white background")
			colours := regexp.MustCompile(`class="series" data-name="([^"]*)" stroke="#([0-9a-f]{6})"`).FindAllSubmatch(svg, -1)
			require.NotEmpty(t, colours)
			for _, m := range colours {
				c := hexColour(string(m[2]))
				n := 0
				for got, k := range counts {
					if near(got, c) {
						n += k
					}
				}
				// A 2-pixel line across the plot, its markers and legend
				// swatch cover hundreds of pixels; a series hidden under
				// another still shows its legend swatch and markers.
				assert.Greater(t, n, 60, "series %s (#%s): %d pixels of its colour", m[1], m[2], n)
			}
			t.Logf("%s: %s", f, shot)
		})
	}
}

// findChromium returns the path of a Chromium binary, or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// colourCounts counts the pixels of each RGB colour of img.
func colourCounts(img image.Image) map[[3]uint8]int {
	counts := map[[3]uint8]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[[3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}]++
		}
	}
	return counts
}

// hexColour parses "1f77b4".
func hexColour(s string) [3]uint8 {
	v, _ := strconv.ParseUint(s, 16, 32)
	return [3]uint8{uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

// near reports whether a is within a small distance of b per channel
// (anti-aliasing and colour management shift the rendered shade slightly).
func near(a, b [3]uint8) bool {
	for i := range a {
		d := int(a[i]) - int(b[i])
		if d < -12 || d > 12 {
			return false
		}
	}
	return true
}
