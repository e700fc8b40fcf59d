// Package proc answers whether a process is still alive and ends one: what
// the matrix and the tests need to show that nothing a host started is
// left running.
package proc
