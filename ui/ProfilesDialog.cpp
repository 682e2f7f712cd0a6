#include "ProfilesDialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <thread>

namespace lw::ui {

namespace {

QLineEdit* lineEdit(const QString& objectName, const QString& placeholder = {})
{
    auto* e = new QLineEdit;
    e->setObjectName(objectName);
    e->setPlaceholderText(placeholder);
    return e;
}

QDoubleSpinBox* seconds(const QString& objectName, double max, const QString& suffix = QStringLiteral(" s"))
{
    auto* s = new QDoubleSpinBox;
    s->setObjectName(objectName);
    s->setRange(0, max);
    s->setDecimals(1);
    s->setSuffix(suffix);
    return s;
}

// A file path field with a "…" button that opens a file chooser.
QWidget* withBrowse(QLineEdit* edit, QWidget* parent)
{
    auto* w = new QWidget;
    auto* l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(edit);
    auto* b = new QPushButton(QStringLiteral("…"));
    b->setMaximumWidth(32);
    b->setToolTip(QObject::tr("Choose a file"));
    QObject::connect(b, &QPushButton::clicked, parent, [edit, parent] {
        const QString f = QFileDialog::getOpenFileName(parent, QObject::tr("Choose a file"), edit->text());
        if (!f.isEmpty())
            edit->setText(f);
    });
    l->addWidget(b);
    return w;
}

QString poolSizesText(const QHash<QString, int>& sizes)
{
    QStringList parts;
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
    parts.sort();
    return parts.join(QStringLiteral(", "));
}

QStringList splitList(const QString& s)
{
    QStringList out;
    for (const QString& x : s.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!x.trimmed().isEmpty())
            out << x.trimmed();
    return out;
}

} // namespace

ProfilesDialog::ProfilesDialog(ProfileStore* store, QWidget* parent)
    : QDialog(parent), store_(store)
{
    setWindowTitle(tr("Leasewatch — connection profiles"));
    setObjectName(QStringLiteral("profilesDialog"));

    list_ = new QListWidget;
    list_->setObjectName(QStringLiteral("profileList"));
    list_->setMinimumWidth(160);
    auto* newButton = new QPushButton(tr("&New"));
    auto* removeButton = new QPushButton(tr("&Remove"));
    removeButton->setObjectName(QStringLiteral("removeProfile"));
    connect(newButton, &QPushButton::clicked, this, &ProfilesDialog::newProfile);
    connect(removeButton, &QPushButton::clicked, this, &ProfilesDialog::removeCurrent);
    auto* left = new QVBoxLayout;
    left->addWidget(list_, 1);
    auto* leftButtons = new QHBoxLayout;
    leftButtons->addWidget(newButton);
    leftButtons->addWidget(removeButton);
    left->addLayout(leftButtons);
    // Started without a database, the fleet is one click away: every saved profile, worst first.
    auto* fleetButton = new QPushButton(tr("Databases at a &glance…"));
    fleetButton->setObjectName(QStringLiteral("showFleet"));
    fleetButton->setToolTip(tr("Every saved profile with its state and findings, worst first"));
    connect(fleetButton, &QPushButton::clicked, this, [this] { done(ShowFleet); });
    left->addWidget(fleetButton);

    // --- Connection
    name_ = lineEdit(QStringLiteral("profileName"), tr("e.g. prod-billing"));
    dsn_ = lineEdit(QStringLiteral("profileDsn"), tr("host=… dbname=…, postgresql://…, or leave empty"));
    host_ = lineEdit(QStringLiteral("profileHost"), tr("host name, IP or socket directory"));
    port_ = lineEdit(QStringLiteral("profilePort"), QStringLiteral("5432"));
    dbname_ = lineEdit(QStringLiteral("profileDbname"));
    user_ = lineEdit(QStringLiteral("profileUser"));
    service_ = lineEdit(QStringLiteral("profileService"), tr("a section of pg_service.conf"));
    sslmode_ = new QComboBox;
    sslmode_->setObjectName(QStringLiteral("profileSslmode"));
    sslmode_->addItems({QString(), QStringLiteral("disable"), QStringLiteral("allow"), QStringLiteral("prefer"),
                        QStringLiteral("require"), QStringLiteral("verify-ca"), QStringLiteral("verify-full")});
    sslrootcert_ = lineEdit(QStringLiteral("profileSslrootcert"), tr("CA certificate (verify-ca, verify-full)"));
    sslcert_ = lineEdit(QStringLiteral("profileSslcert"));
    sslkey_ = lineEdit(QStringLiteral("profileSslkey"));
    auto* conn = new QGroupBox(tr("Connection"));
    auto* cf = new QFormLayout(conn);
    cf->addRow(tr("&Name:"), name_);
    cf->addRow(tr("Connection &string:"), dsn_);
    cf->addRow(new QLabel(tr("<i>or, when the connection string is empty:</i>")));
    cf->addRow(tr("&Host:"), host_);
    cf->addRow(tr("&Port:"), port_);
    cf->addRow(tr("&Database:"), dbname_);
    cf->addRow(tr("&User:"), user_);
    cf->addRow(tr("Ser&vice:"), service_);
    cf->addRow(tr("SSL &mode:"), sslmode_);
    cf->addRow(tr("CA certificate:"), withBrowse(sslrootcert_, this));
    cf->addRow(tr("Client certificate:"), withBrowse(sslcert_, this));
    cf->addRow(tr("Client key:"), withBrowse(sslkey_, this));
    auto* pw = new QLabel(tr("Passwords are not stored here: libpq reads them from ~/.pgpass (or PGPASSFILE) "
                             "or the service file."));
    pw->setWordWrap(true);
    cf->addRow(pw);

    // --- Leases table
    preset_ = new QComboBox;
    preset_->setObjectName(QStringLiteral("profilePreset"));
    preset_->addItems(LeaseTableConfig::presetNames());
    table_ = lineEdit(QStringLiteral("profileTable"), QStringLiteral("public.leases"));
    columns_ = lineEdit(QStringLiteral("profileColumns"), QStringLiteral("name,holder,taken_at,expires_at"));
    timeKind_ = lineEdit(QStringLiteral("profileTimeKind"), tr("timestamptz, utc or a zone name"));
    ttl_ = seconds(QStringLiteral("profileTtl"), 86400 * 7);
    ttl_->setSpecialValueText(tr("inferred from renewals"));
    connect(preset_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        // A preset fills the table fields; they stay editable.
        const auto lt = LeaseTableConfig::preset(name);
        if (!lt)
            return;
        table_->setText(lt->qualifiedName());
        columns_->setText(lt->columnsSpec());
        timeKind_->setText(lt->timeKindSpec());
        // A library read through the catalogue's expressions has no columns to map by hand.
        columns_->setEnabled(!lt->mappedByExpressions());
        timeKind_->setEnabled(lt->timeKindApplies());
    });
    detect_ = new QCheckBox(tr("Find library lease tables (ShedLock, River, Oban, Quartz, db-scheduler, "
                               "graphile-worker, Liquibase) while the table is left at its default"));
    detect_->setObjectName(QStringLiteral("profileDetect"));
    detect_->setChecked(true);
    auto* leases = new QGroupBox(tr("Leases table"));
    auto* lf = new QFormLayout(leases);
    lf->addRow(tr("P&reset:"), preset_);
    lf->addRow(QString(), detect_);
    lf->addRow(tr("&Table:"), table_);
    lf->addRow(tr("&Columns:"), columns_);
    lf->addRow(tr("Time &kind:"), timeKind_);
    lf->addRow(tr("TT&L:"), ttl_);

    // --- Monitoring
    interval_ = new QSpinBox;
    interval_->setObjectName(QStringLiteral("profileInterval"));
    interval_->setRange(100, 600000);
    interval_->setSingleStep(100);
    interval_->setSuffix(QStringLiteral(" ms"));
    lockNames_ = lineEdit(QStringLiteral("profileLockNames"), tr("nightly-report, billing-export-%Y-%m-%d"));
    prefixes_ = lineEdit(QStringLiteral("profilePrefixes"), tr("e.g. app1:"));
    poolSizes_ = lineEdit(QStringLiteral("profilePoolSizes"), tr("billing-api=4, worker=8"));
    idleHolding_ = seconds(QStringLiteral("profileIdleHolding"), 86400);
    advisoryWait_ = seconds(QStringLiteral("profileAdvisoryWait"), 86400);
    lockTableShare_ = seconds(QStringLiteral("profileLockTableShare"), 100, QStringLiteral(" %"));
    connectionShare_ = seconds(QStringLiteral("profileConnectionShare"), 100, QStringLiteral(" %"));
    operator_ = new QCheckBox(tr("Operator mode: allow force-expire and cancel/terminate"));
    operator_->setObjectName(QStringLiteral("profileOperator"));
    auditTable_ = lineEdit(QStringLiteral("profileAuditTable"), tr("optional server-side audit table"));
    pgbouncer_ = lineEdit(QStringLiteral("profilePgbouncer"), tr("optional: host=… port=6432 dbname=pgbouncer"));
    viaRecorder_ = lineEdit(QStringLiteral("profileViaRecorder"),
                            tr("optional: feed://host:9472/name (empty: this machine's recorder, if one runs)"));
    viaRecorder_->setToolTip(tr("Read the live refreshes of `leasewatch record --serve` on another machine instead of "
                                "connecting; the connection above is then used for operator actions only."));
    historyDays_ = new QSpinBox;
    historyDays_->setRange(1, 3650);
    historyDays_->setSuffix(tr(" days"));
    historyMb_ = new QSpinBox;
    historyMb_->setRange(10, 100000);
    historyMb_->setSuffix(QStringLiteral(" MB"));
    alerts_ = new QCheckBox(tr("Desktop notifications for new problems"));
    alerts_->setObjectName(QStringLiteral("profileAlerts"));
    auto* mon = new QGroupBox(tr("Monitoring"));
    auto* mf = new QFormLayout(mon);
    mf->addRow(tr("Refresh &interval:"), interval_);
    mf->addRow(tr("Known lock &names:"), lockNames_);
    mf->addRow(tr("Lock name prefixes:"), prefixes_);
    mf->addRow(tr("Pool si&zes:"), poolSizes_);
    mf->addRow(tr("Idle holding a lock after:"), idleHolding_);
    mf->addRow(tr("Waiting on a lock after:"), advisoryWait_);
    mf->addRow(tr("Lock table use above:"), lockTableShare_);
    mf->addRow(tr("Connections above:"), connectionShare_);
    mf->addRow(operator_);
    mf->addRow(tr("Audit table:"), auditTable_);
    mf->addRow(tr("PgBouncer admin:"), pgbouncer_);
    mf->addRow(tr("Via recorder:"), viaRecorder_);
    mf->addRow(tr("Keep history:"), historyDays_);
    mf->addRow(tr("… at most:"), historyMb_);
    mf->addRow(alerts_);

    auto* form = new QWidget;
    auto* fl = new QVBoxLayout(form);
    fl->addWidget(conn);
    fl->addWidget(leases);
    fl->addWidget(mon);
    fl->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(form);

    message_ = new QLabel;
    message_->setObjectName(QStringLiteral("profileMessage"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testButton_ = new QPushButton(tr("&Test connection"));
    testButton_->setObjectName(QStringLiteral("testConnection"));
    auto* save = new QPushButton(tr("&Save"));
    save->setObjectName(QStringLiteral("saveProfile"));
    auto* open = new QPushButton(tr("&Open"));
    open->setObjectName(QStringLiteral("openProfile"));
    open->setDefault(true);
    auto* close = new QPushButton(tr("Close"));
    connect(testButton_, &QPushButton::clicked, this, &ProfilesDialog::testConnection);
    connect(save, &QPushButton::clicked, this, &ProfilesDialog::saveCurrent);
    connect(open, &QPushButton::clicked, this, &ProfilesDialog::openCurrent);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(testButton_);
    buttons->addStretch(1);
    buttons->addWidget(save);
    buttons->addWidget(open);
    buttons->addWidget(close);

    auto* right = new QVBoxLayout;
    right->addWidget(scroll, 1);
    right->addWidget(message_);
    right->addLayout(buttons);
    auto* top = new QHBoxLayout(this);
    top->addLayout(left);
    top->addLayout(right, 1);
    resize(820, 720);

    connect(list_, &QListWidget::currentRowChanged, this, &ProfilesDialog::selectRow);
    connect(list_, &QListWidget::itemActivated, this, [this] { openCurrent(); });
    reloadList({});
    if (store_->profiles().isEmpty())
        newProfile();
}

void ProfilesDialog::reloadList(const QString& select)
{
    const QSignalBlocker block(list_);
    list_->clear();
    int row = store_->profiles().isEmpty() ? -1 : 0;
    for (int i = 0; i < store_->profiles().size(); ++i) {
        list_->addItem(store_->profiles().at(i).name);
        if (store_->profiles().at(i).name == select)
            row = i;
    }
    currentRow_ = -1;
    list_->setCurrentRow(row);
    if (row >= 0)
        selectRow(row);
}

void ProfilesDialog::selectRow(int row)
{
    currentRow_ = row;
    if (row >= 0 && row < store_->profiles().size())
        setFormProfile(store_->profiles().at(row));
}

void ProfilesDialog::newProfile()
{
    Profile p;
    p.name = tr("new profile");
    {
        const QSignalBlocker block(list_);
        list_->clearSelection();
        list_->setCurrentRow(-1);
    }
    currentRow_ = -1;
    setFormProfile(p);
    name_->setFocus();
    name_->selectAll();
}

void ProfilesDialog::setFormProfile(const Profile& p)
{
    name_->setText(p.name);
    dsn_->setText(p.dsn);
    host_->setText(p.host);
    port_->setText(p.port);
    dbname_->setText(p.dbname);
    user_->setText(p.user);
    service_->setText(p.service);
    sslmode_->setCurrentText(p.sslmode);
    sslrootcert_->setText(p.sslrootcert);
    sslcert_->setText(p.sslcert);
    sslkey_->setText(p.sslkey);
    {
        const QSignalBlocker block(preset_);
        preset_->setCurrentText(p.leasePreset);
    }
    detect_->setChecked(p.detectLeaseTables);
    columns_->setEnabled(!p.leases.mappedByExpressions());
    timeKind_->setEnabled(p.leases.timeKindApplies());
    table_->setText(p.leases.qualifiedName());
    columns_->setText(p.leases.columnsSpec());
    timeKind_->setText(p.leases.timeKindSpec());
    ttl_->setValue(p.leases.ttlSeconds.value_or(0));
    interval_->setValue(p.intervalMs);
    lockNames_->setText(p.lockNames.join(QStringLiteral(", ")));
    prefixes_->setText(p.lockNamePrefixes.join(QStringLiteral(", ")));
    poolSizes_->setText(poolSizesText(p.analysis.poolSizes));
    idleHolding_->setValue(p.analysis.thresholds.idleHoldingS);
    advisoryWait_->setValue(p.analysis.thresholds.advisoryWaitS);
    lockTableShare_->setValue(p.analysis.thresholds.lockTableShare * 100);
    connectionShare_->setValue(p.analysis.thresholds.connectionShare * 100);
    operator_->setChecked(p.operatorMode);
    auditTable_->setText(p.auditTable);
    pgbouncer_->setText(p.pgbouncerDsn);
    viaRecorder_->setText(p.viaRecorder);
    historyDays_->setValue(p.historyDays);
    historyMb_->setValue(p.historyMb);
    alerts_->setChecked(p.alerts);
    message_->clear();
}

Profile ProfilesDialog::formProfile() const
{
    // Start from the stored profile so that settings without a field here survive an edit.
    Profile p = currentRow_ >= 0 && currentRow_ < store_->profiles().size() ? store_->profiles().at(currentRow_)
                                                                              : Profile{};
    p.name = name_->text().trimmed();
    p.dsn = dsn_->text().trimmed();
    p.host = host_->text().trimmed();
    p.port = port_->text().trimmed();
    p.dbname = dbname_->text().trimmed();
    p.user = user_->text().trimmed();
    p.service = service_->text().trimmed();
    p.sslmode = sslmode_->currentText();
    p.sslrootcert = sslrootcert_->text().trimmed();
    p.sslcert = sslcert_->text().trimmed();
    p.sslkey = sslkey_->text().trimmed();
    p.leasePreset = preset_->currentText();
    p.leases = LeaseTableConfig::preset(p.leasePreset).value_or(LeaseTableConfig{});
    p.detectLeaseTables = detect_->isChecked();
    p.leases.setQualifiedName(table_->text());
    if (!columns_->text().trimmed().isEmpty())
        p.leases.setColumns(columns_->text().trimmed());
    if (!timeKind_->text().trimmed().isEmpty())
        p.leases.setTimeKind(timeKind_->text().trimmed());
    p.leases.ttlSeconds = ttl_->value() > 0 ? std::optional<double>(ttl_->value()) : std::nullopt;
    p.intervalMs = interval_->value();
    p.lockNames = splitList(lockNames_->text());
    p.lockNamePrefixes = splitList(prefixes_->text());
    p.analysis.poolSizes.clear();
    for (const QString& item : splitList(poolSizes_->text()))
        if (const auto size = parsePoolSize(item))
            p.analysis.poolSizes.insert(size->first, size->second);
    p.analysis.thresholds.idleHoldingS = idleHolding_->value();
    p.analysis.thresholds.advisoryWaitS = advisoryWait_->value();
    p.analysis.thresholds.lockTableShare = lockTableShare_->value() / 100;
    p.analysis.thresholds.connectionShare = connectionShare_->value() / 100;
    p.operatorMode = operator_->isChecked();
    p.auditTable = auditTable_->text().trimmed();
    p.pgbouncerDsn = pgbouncer_->text().trimmed();
    p.viaRecorder = viaRecorder_->text().trimmed();
    p.historyDays = historyDays_->value();
    p.historyMb = historyMb_->value();
    p.alerts = alerts_->isChecked();
    return p;
}

void ProfilesDialog::showMessage(const QString& text, bool ok)
{
    message_->setText(text);
    message_->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
}

QString ProfilesDialog::messageText() const
{
    return message_->text();
}

bool ProfilesDialog::saveCurrent()
{
    const Profile p = formProfile();
    if (auto bad = p.validate()) {
        showMessage(*bad, false); // every field stays as typed
        return false;
    }
    // A rename replaces the old entry instead of leaving a copy behind.
    if (currentRow_ >= 0 && currentRow_ < store_->profiles().size() &&
        store_->profiles().at(currentRow_).name != p.name)
        store_->remove(store_->profiles().at(currentRow_).name);
    store_->upsert(p);
    if (auto err = store_->save()) {
        showMessage(*err, false);
        return false;
    }
    reloadList(p.name);
    showMessage(tr("Saved to %1.").arg(store_->path()), true);
    return true;
}

void ProfilesDialog::removeCurrent()
{
    if (currentRow_ < 0 || currentRow_ >= store_->profiles().size())
        return;
    const QString name = store_->profiles().at(currentRow_).name;
    store_->remove(name);
    if (auto err = store_->save()) {
        showMessage(*err, false);
        return;
    }
    reloadList({});
    if (store_->profiles().isEmpty())
        newProfile();
    showMessage(tr("Removed \"%1\".").arg(name), true);
}

void ProfilesDialog::testConnection()
{
    const Profile p = formProfile();
    if (auto bad = p.validate()) {
        showMessage(*bad, false);
        return;
    }
    if (testRunning_)
        return;
    testRunning_ = true;
    testButton_->setEnabled(false);
    showMessage(tr("Connecting…"), true);
    PollerConfig cfg = p.toPollerConfig();
    cfg.connect.connectTimeoutS = 10;
    QPointer<ProfilesDialog> self(this);
    // One refresh off the UI thread, exactly as the console would read; the answer comes back queued.
    // Not counted background work (BackgroundWork.h): a test connection is abandoned with the dialog.
    std::thread([cfg, self] {
        Poller poller(cfg);
        const Snapshot s = poller.refreshOnce();
        QString text;
        bool ok = s.ok;
        if (!s.ok) {
            text = s.error.toDisplayString();
        } else {
            text = QObject::tr("Connected: PostgreSQL %1, database %2 as %3.")
                       .arg(s.server.version, s.server.database, s.server.user);
            if (s.leasesError) {
                ok = false;
                text += QLatin1Char(' ') + s.leasesError->toDisplayString();
            } else {
                text += QObject::tr(" Leases table %1: %n lease(s).", nullptr, int(s.leases.size()))
                            .arg(cfg.leases.qualifiedName());
            }
            if (!s.cluster.hasMonitorPrivilege)
                text += QObject::tr(" Without pg_monitor other roles' sessions are hidden "
                                    "(GRANT pg_monitor TO %1).")
                            .arg(s.server.user);
        }
        QMetaObject::invokeMethod(qApp, [self, text, ok] {
            if (!self)
                return;
            self->testRunning_ = false;
            self->testButton_->setEnabled(true);
            self->showMessage(text, ok);
            Q_EMIT self->testFinished(text, ok);
        });
    }).detach();
}

void ProfilesDialog::openCurrent()
{
    const Profile p = formProfile();
    if (auto bad = p.validate()) {
        showMessage(*bad, false);
        return;
    }
    chosen_ = p;
    accept();
}

} // namespace lw::ui
