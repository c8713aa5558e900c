"""The detect-secrets plugins memtui runs, and its own custom plugins (detect-secrets'
RegexBasedDetector) for provider formats detect-secrets 1.5 does not know. Imported on
the first scan only (it imports detect-secrets, ~150 ms)."""

from __future__ import annotations

import re

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from memtui.i18n import N_


class AnthropicDetector(RegexBasedDetector):
    secret_type = "Anthropic API Key"
    denylist = (re.compile(r"sk-ant-[A-Za-z0-9_\-]{20,}"),)


class OpenAIProjectDetector(RegexBasedDetector):
    """Project, service-account and admin keys, and legacy keys without T3BlbkFJ."""

    secret_type = "OpenAI Token"
    denylist = (
        re.compile(r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}"),
        re.compile(r"sk-[A-Za-z0-9]{32,}(?![A-Za-z0-9_\-])"),
    )


class GoogleApiKeyDetector(RegexBasedDetector):
    secret_type = "Google API Key"
    denylist = (re.compile(r"AIza[0-9A-Za-z_\-]{35}"),)


class GitHubFineGrainedDetector(RegexBasedDetector):
    secret_type = "GitHub Token"
    denylist = (re.compile(r"github_pat_[A-Za-z0-9_]{22,}"),)


class NpmTokenDetector(RegexBasedDetector):
    """An npm token anywhere (detect-secrets finds it only in an .npmrc line)."""

    secret_type = "NPM tokens"
    denylist = (re.compile(r"npm_[A-Za-z0-9]{36}"),)


class SlackAppTokenDetector(RegexBasedDetector):
    secret_type = "Slack Token"
    denylist = (re.compile(r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),)


class StripeTestKeyDetector(RegexBasedDetector):
    secret_type = "Stripe Access Key"
    denylist = (re.compile(r"(?:sk|rk)_test_[0-9a-zA-Z]{24,}"),)


class HuggingFaceDetector(RegexBasedDetector):
    secret_type = "Hugging Face Token"
    denylist = (re.compile(r"hf_[A-Za-z0-9]{34,}"),)


class TwilioApiKeyDetector(RegexBasedDetector):
    """Twilio API key SIDs are hex of either case (detect-secrets: lower case only)."""

    secret_type = "Twilio API Key"
    denylist = (re.compile(r"(?:AC|SK)[0-9a-fA-F]{32}(?![A-Za-z0-9])"),)


class AzureStorageKeyDetector(RegexBasedDetector):
    """detect-secrets' own, the value alone (its match starts at `AccountKey=`)."""

    secret_type = "Azure Storage Account access key"
    denylist = (re.compile(r"AccountKey=([a-zA-Z0-9+/=]{88})"),)


class WholeJwtDetector(JwtTokenDetector):
    """detect-secrets' JWT match stops before the signature (a lazy `*?`): the whole token."""

    denylist = (re.compile(r"eyJ[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.?[A-Za-z0-9\-_.+/=]*"),)


# The kind secrets.py names a PEM private key block it finds itself (no plugin): marked
# here, with the plugins' kinds, for the catalogue (a kind is said in sentences).
PRIVATE_KEY = N_("private key")

# (kind in words, plugin class, whether its regexes' first group is the value, what a
# text must hold (lower-cased) for the plugin to be run on it: most files hold none, and
# a substring test is a hundred times quicker than the regexes), in the order a span is
# claimed: a more specific format before a looser one.
PLUGINS: tuple[tuple[str, type[RegexBasedDetector], bool, tuple[str, ...]], ...] = (
    (N_("Anthropic API key"), AnthropicDetector, False, ("sk-ant-",)),
    (N_("OpenAI API key"), OpenAIDetector, False, ("t3blbkfj",)),
    (N_("OpenAI API key"), OpenAIProjectDetector, False, ("sk-",)),
    (N_("AWS access key"), AWSKeyDetector, True, ("a3t", "abia", "acca", "akia", "asia", "aws")),
    (N_("GitHub token"), GitHubTokenDetector, False, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    (N_("GitHub token"), GitHubFineGrainedDetector, False, ("github_pat_",)),
    (N_("GitLab token"), GitLabTokenDetector, False, ("gl", "gr1348941")),
    (N_("Slack token"), SlackDetector, False, ("xox", "hooks.slack.com")),
    (N_("Slack token"), SlackAppTokenDetector, False, ("xapp-",)),
    (N_("Stripe key"), StripeDetector, False, ("_live_",)),
    (N_("Stripe key"), StripeTestKeyDetector, False, ("_test_",)),
    (N_("Google API key"), GoogleApiKeyDetector, False, ("aiza",)),
    (N_("Twilio key"), TwilioKeyDetector, False, ("ac", "sk")),
    (N_("Twilio key"), TwilioApiKeyDetector, False, ("ac", "sk")),
    (N_("SendGrid API key"), SendGridDetector, False, ("sg.",)),
    (N_("npm token"), NpmDetector, True, ("_authtoken",)),
    (N_("npm token"), NpmTokenDetector, False, ("npm_",)),
    (N_("PyPI token"), PypiTokenDetector, False, ("pypi-",)),
    (N_("Hugging Face token"), HuggingFaceDetector, False, ("hf_",)),
    (N_("Discord bot token"), DiscordBotTokenDetector, False, (".",)),
    (N_("Telegram bot token"), TelegramBotTokenDetector, False, (":",)),
    (N_("Mailchimp API key"), MailchimpDetector, False, ("-us",)),
    (N_("Square OAuth secret"), SquareOAuthDetector, False, ("sq0csp-",)),
    (N_("Azure storage key"), AzureStorageKeyDetector, True, ("accountkey=",)),
    (N_("JSON web token"), WholeJwtDetector, False, ("eyj",)),
    (N_("password in a URL"), BasicAuthDetector, True, ("://",)),
)
