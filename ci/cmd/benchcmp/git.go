package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// git runs git with args in dir and returns its trimmed standard output. On
// failure the error holds git's standard error.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimSpace(stdout.String()), nil
}

// repoRoot returns the top directory of the git working tree holding dir.
func repoRoot(ctx context.Context, dir string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", errors.New("git not found in PATH")
	}
	root, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository (run benchcmp inside the repository to compare): %v", dir, err)
	}
	if root == "" {
		return "", fmt.Errorf("%s is not in a git working tree (bare repository?)", dir)
	}
	return root, nil
}

// resolveRev returns the commit hash that rev names in the repository at root.
func resolveRev(ctx context.Context, root, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("bad -base revision %q", rev)
	}
	sha, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil || sha == "" {
		return "", fmt.Errorf("unknown revision %q: no such commit in %s", rev, root)
	}
	return sha, nil
}

// describeCommit returns "abc1234 subject" for a commit hash.
func describeCommit(ctx context.Context, root, sha string) string {
	s, err := git(ctx, root, "log", "-1", "--format=%h %s", sha)
	if err != nil || s == "" {
		return sha
	}
	return s
}

// describeWorkingTree describes the head side: the HEAD commit and whether
// the working tree has uncommitted changes.
func describeWorkingTree(ctx context.Context, root string) string {
	head, err := git(ctx, root, "log", "-1", "--format=%h")
	if err != nil || head == "" {
		head = "no commits"
	}
	status, err := git(ctx, root, "status", "--porcelain", "--untracked-files=no")
	switch {
	case err != nil:
		return "working tree at " + head
	case status == "":
		return "working tree at " + head + ", clean"
	default:
		return "working tree at " + head + " + uncommitted changes"
	}
}

// worktree is a temporary detached git worktree of the base revision.
type worktree struct {
	repo string // the main working tree
	dir  string // the temporary worktree
}

// addWorktree checks out rev (a commit hash) into a new detached worktree at
// dir, which must not exist.
func addWorktree(ctx context.Context, repo, dir, rev string) (*worktree, error) {
	if _, err := git(ctx, repo, "worktree", "add", "--detach", "--quiet", dir, rev); err != nil {
		// git may have registered the worktree before failing.
		w := &worktree{repo: repo, dir: dir}
		w.remove()
		return nil, fmt.Errorf("creating the base worktree: %v", err)
	}
	return &worktree{repo: repo, dir: dir}, nil
}

// remove deletes the worktree and its registration. It runs with its own
// context, so it also works after an interrupt cancelled the command's.
func (w *worktree) remove() error {
	ctx := context.Background()
	_, err := git(ctx, w.repo, "worktree", "remove", "--force", "--force", w.dir)
	// Whatever git managed, make sure the files and the registration go.
	if rmErr := os.RemoveAll(w.dir); rmErr != nil && err == nil {
		err = rmErr
	}
	if _, pruneErr := git(ctx, w.repo, "worktree", "prune"); pruneErr != nil && err == nil {
		err = pruneErr
	}
	if _, statErr := os.Stat(w.dir); statErr == nil {
		return fmt.Errorf("removing base worktree %s: still exists (%v)", w.dir, err)
	}
	return nil
}
