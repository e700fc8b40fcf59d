package redact

import (
	"slices"
	"strings"
)

// secretWords are the words (parts of a variable name between
// underscores) that make a name look secret.
var secretWords = []string{
	"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "PWD",
	"CREDENTIAL", "CREDENTIALS", "CREDS", "KEY", "APIKEY", "AUTH", "COOKIE", "PAT", "DSN",
}

// notSecret are names that look secret and hold nothing secret: where the
// shell is, a socket, a region, a file name.
var notSecret = []string{
	"PWD", "OLDPWD", "SSH_AUTH_SOCK", "GPG_AGENT_INFO",
	"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_DEFAULT_OUTPUT",
	"AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CA_BUNDLE", "AWS_PAGER", "AWS_SDK_LOAD_CONFIG",
	"GOOGLE_APPLICATION_CREDENTIALS",
}

// SecretName reports whether the environment variable name looks like it
// holds a secret: a name beginning with AWS_, or with a word (between
// underscores, any case) among TOKEN, SECRET, PASSWORD, PASSWD, PASS,
// PASSPHRASE, PWD, CREDENTIAL(S), CREDS, KEY, APIKEY, AUTH, COOKIE, PAT and
// DSN, or that contains TOKEN, SECRET or PASSWORD anywhere
// (GITHUBTOKEN). PWD, OLDPWD, SSH_AUTH_SOCK and the AWS_ settings that
// name a region, profile or file are not secret.
func SecretName(name string) bool {
	up := strings.ToUpper(name)
	if slices.Contains(notSecret, up) {
		return false
	}
	if strings.HasPrefix(up, "AWS_") {
		return true
	}
	for _, w := range strings.FieldsFunc(up, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if slices.Contains(secretWords, w) {
			return true
		}
	}
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD"} {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// FromEnv returns the redactor of an environment (os.Environ's form,
// NAME=value): the values of the variables whose names look secret
// ([SecretName]), and of the variables named in pass (those --host-env
// hands to hosts) whatever their names.
func FromEnv(environ []string, pass []string) *Redactor {
	var secrets []Secret
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if SecretName(name) || slices.Contains(pass, name) {
			secrets = append(secrets, Secret{Name: name, Value: value})
		}
	}
	return New(secrets...)
}
