"""The screens every game shares: home, rules, dialogs, and the localized screen base."""
