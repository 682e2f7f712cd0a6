#pragma once
// The language of every word a user reads: German or English, chosen by --lang, else by the
// window's setting (Settings: "language"), else by the locale (LC_ALL, LC_MESSAGES, LANG). The
// translations are embedded (:/i18n); Qt's own words (its dialogs' buttons) come from Debian's
// qt6-translations-l10n when it is installed.
#include <QString>
#include <QStringList>

namespace lw {

// The languages there is a translation for, English (the sources' own) first.
QStringList availableLanguages();
// "de" or "en" for a --lang value, a setting or a locale name ("de_DE.UTF-8", "de-AT"); empty
// when it names no language we have.
QString languageCode(const QString& name);
// The language to use: `cli` (--lang) wins, then the saved setting, then the system locale.
QString chooseLanguage(const QString& cli);
// Installs the translators for `code` on the running QCoreApplication; German also becomes the
// default locale (numbers, dates). Returns false if the translation could not be loaded.
bool installLanguage(const QString& code);
// The setting the window writes ("" = follow the system).
QString savedLanguage();
void saveLanguage(const QString& code);

} // namespace lw
