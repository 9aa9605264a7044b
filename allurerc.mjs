// Allure Report 3 configuration (pure JS, no Java). `npm run report` (scripts/report.ts) renders the
// Allure results of a run folder with it.
//
// Analytics: the awesome plugin of Allure 3.18 writes a Google Analytics tag into every report and has
// no option to turn it off (allure3 issue #476; `analyticsEnable` is hard-coded in its generator).
// scripts/report.ts removes the tag and refuses a report that would still reach the network; render
// with `npm run report`, not with `npx allure generate`. ALLURE_NO_ANALYTICS is set anyway (the Allure 2
// opt-out, which the proposed Allure 3 option, allure3 PR #784, also reads).
process.env.ALLURE_NO_ANALYTICS ??= 'true';
export default {
  name: 'Payments API conformance',
  output: './reports/allure-report',
  // One append-only JSONL file: keep it between nightly runs and the report shows trends.
  // PAYMENTS_ALLURE_HISTORY points elsewhere (tests render into a history of their own).
  historyPath: process.env.PAYMENTS_ALLURE_HISTORY ?? './reports/history/allure-history.jsonl',
  // The runs a report remembers. Allure embeds each test's earlier results in the report (about 1 MB
  // per remembered run of 600 tests, measured) and reads the whole file at every render: unbounded,
  // every night made the report ~2.5 MB larger (10 nights: 42 MB). Five runs, a working week of
  // nights, keep trends and each test's history; a full local report then stays near 16 MB.
  historyLimit: 5,
  plugins: {
    awesome: {
      options: {
        reportName: 'Payments API conformance',
        singleFile: true,
        reportLanguage: 'en',
        groupBy: ['epic', 'feature', 'story'],
      },
    },
  },
};
