// TLS with full verification against a private server whose certificate comes from a throwaway CA
// made here with the openssl CLI: the right CA connects (and the session really is encrypted), a
// wrong CA, a host name the certificate does not name, or a missing CA file each fail with one
// clear line.
#include "FaultSupport.h"
#include "Poller.h"
#include "TestCluster.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace lw;

namespace {
// Runs openssl in `dir`; returns an error text or nullopt.
std::optional<QString> openssl(const QString& dir, const QStringList& args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("openssl %1: %2").arg(args.join(' '), QString::fromUtf8(p.readAll()));
    return std::nullopt;
}

// A CA (self-signed) and, optionally, a key + certificate for `cn` signed by it. EC keys: fast.
std::optional<QString> makeCa(const QString& dir, const QString& name)
{
    return openssl(dir, {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                         "-nodes", "-keyout", name + ".key", "-out", name + ".crt", "-days", "2", "-subj",
                         "/CN=Leasewatch test " + name});
}
} // namespace

class TestFaultTls : public QObject
{
    Q_OBJECT

    std::unique_ptr<fault::PrivateServer> srv_;
    QString tls_; // certificates, inside the cluster's directory (removed with it)

    QString dsn(const QString& host, const QString& rootCert) const
    {
        // hostaddr: the server listens on 127.0.0.1 only, and "localhost" may resolve to ::1 first;
        // libpq still verifies the certificate against host=.
        return QStringLiteral(
                   "host=%1 hostaddr=127.0.0.1 port=%2 user=%3 dbname=postgres sslmode=verify-full "
                   "sslrootcert=%4")
            .arg(host)
            .arg(srv_->port())
            .arg(srv_->superuser(), rootCert);
    }
    static PollerConfig configFor(const QString& dsn)
    {
        PollerConfig c;
        c.connect.dsn = dsn;
        c.connect.connectTimeoutS = 5;
        return c;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
            QSKIP("openssl CLI not installed (Debian package openssl)");
        auto opts = test::privateClusterOptions(QStringLiteral("tls"));
        opts.tcp = true;
        opts.port = fault::freeTcpPort();
        QVERIFY(opts.port > 0);
        tls_ = opts.directory + QStringLiteral("/tls");
        QVERIFY(QDir().mkpath(tls_));

        QVERIFY2(!makeCa(tls_, "ca"), "cannot make the CA");
        QVERIFY2(!makeCa(tls_, "wrong-ca"), "cannot make the second CA");
        QFile ext(tls_ + QStringLiteral("/server.ext"));
        QVERIFY(ext.open(QIODevice::WriteOnly));
        ext.write("basicConstraints = CA:FALSE\nsubjectAltName = DNS:localhost\n");
        ext.close();
        const auto e1 =
            openssl(tls_, {"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                           "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"});
        QVERIFY2(!e1, qPrintable(e1.value_or(QString())));
        const auto e2 =
            openssl(tls_, {"x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                           "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "server.ext"});
        QVERIFY2(!e2, qPrintable(e2.value_or(QString())));
        // The server refuses a key that others can read; it must belong to the user it runs as.
        const QByteArray key = QFile::encodeName(tls_ + QStringLiteral("/server.key"));
        QVERIFY(::chmod(key.constData(), 0600) == 0);
        if (::geteuid() == 0) {
            const passwd* pw = ::getpwnam("postgres");
            QVERIFY(pw);
            QVERIFY(::chown(key.constData(), pw->pw_uid, pw->pw_gid) == 0);
        }
        QVERIFY(::chmod(QFile::encodeName(tls_).constData(), 0755) == 0);

        opts.extraSettings << QStringLiteral("ssl = on")
                           << QStringLiteral("ssl_cert_file = '%1/server.crt'").arg(tls_)
                           << QStringLiteral("ssl_key_file = '%1/server.key'").arg(tls_);
        srv_ = std::make_unique<fault::PrivateServer>(opts);
        const auto err = srv_->start();
        QVERIFY2(!err, qPrintable(err.value_or(QString())));
    }
    void cleanupTestCase() { srv_.reset(); }

    void verifiedConnectionWorks()
    {
        const QString d = dsn(QStringLiteral("localhost"), tls_ + QStringLiteral("/ca.crt"));
        Poller p(configFor(d));
        const Snapshot s = p.refreshOnce();
        QVERIFY2(s.ok, qPrintable(s.error.toDisplayString()));

        // Encrypted for real, seen from both ends.
        pg::Connection c;
        pg::ConnectOptions o;
        o.dsn = d;
        QVERIFY(!c.connect(o).isError());
        QCOMPARE(PQsslInUse(c.raw()), 1);
        QCOMPARE(test::queryValue(
                     srv_->dsn(),
                     QStringLiteral("SELECT ssl FROM pg_stat_ssl WHERE pid = %1").arg(c.backendPid())),
                 QStringLiteral("t"));
    }

    void refused_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("rootCert");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<QString>("advice");
        QTest::newRow("wrong CA") << "localhost"
                                  << "wrong-ca.crt"
                                  << "certificate verify failed"
                                  << "sslrootcert";
        QTest::newRow("name not in certificate") << "127.0.0.1"
                                                 << "ca.crt"
                                                 << "does not match host name \"127.0.0.1\""
                                                 << "host name";
        QTest::newRow("missing CA file") << "localhost"
                                         << "no-such-ca.crt"
                                         << "does not exist"
                                         << "sslrootcert";
    }
    void refused()
    {
        QFETCH(QString, host);
        QFETCH(QString, rootCert);
        QFETCH(QString, problem);
        QFETCH(QString, advice);
        Poller p(configFor(dsn(host, tls_ + QLatin1Char('/') + rootCert)));
        const Snapshot s = p.refreshOnce();
        QVERIFY(!s.ok);
        const QString shown = s.error.toDisplayString();
        qInfo("%s: %s", QTest::currentDataTag(), qPrintable(shown));
        QCOMPARE(s.error.kind, DbError::Kind::ConnectFailed);
        QVERIFY2(shown.contains(problem), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral(" — ")) && shown.contains(advice), qPrintable(shown));
        QVERIFY2(!shown.contains(QLatin1Char('\n')), qPrintable(shown));
    }
};

QTEST_GUILESS_MAIN(TestFaultTls)
#include "tst_fault_tls.moc"
