package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The GitHub Action (ci/action.yml) passes certify only flags certify
// declares, pins every action it uses to a major version, and turns each
// of its inputs into a flag: it cannot drift from the command line.
func TestActionUsesDeclaredFlags(t *testing.T) {
	data, err := os.ReadFile("../../ci/action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Required bool `yaml:"required"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", action.Runs.Using)
	}
	var certify *command
	for _, c := range commands {
		if c.Name == "certify" {
			certify = c
		}
	}
	declared := flagsOf(certify)
	flagRE := regexp.MustCompile(`(?:^|[\s(])--([a-z][a-z-]*)`)
	pinned := regexp.MustCompile(`^[a-z-]+/[a-z-]+@v[0-9]+$`)
	ran, inputsUsed := false, map[string]bool{}
	for _, s := range action.Runs.Steps {
		if s.Uses != "" && !pinned.MatchString(s.Uses) {
			t.Errorf("step uses %q: want an action pinned to a major version (owner/name@vN)", s.Uses)
		}
		for _, v := range s.Env {
			if name, ok := strings.CutPrefix(v, "${{ inputs."); ok {
				inputsUsed[strings.TrimSuffix(name, " }}")] = true
			}
		}
		if !strings.Contains(s.Run, "certify") {
			continue
		}
		ran = true
		for _, m := range flagRE.FindAllStringSubmatch(s.Run, -1) {
			if !declared[m[1]] {
				t.Errorf("the action passes --%s, which conform certify does not declare", m[1])
			}
		}
	}
	if !ran {
		t.Fatal("no step of the action runs conform certify")
	}
	for name := range action.Inputs {
		if name != "go-version" && !inputsUsed[name] {
			t.Errorf("input %q reaches no step's environment", name)
		}
	}
}
