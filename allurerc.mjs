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
  // The runs a report remembers. Allure embeds each test's earlier results in the report and reads
  // the whole file at every render: unbounded, every night would make the report larger and slower
  // to open. Five runs, a working week of nights, keep trends and each test's history.
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
