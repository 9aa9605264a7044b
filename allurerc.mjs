// Allure Report 3 configuration (pure JS, no Java). `npm run report` (scripts/report.ts) renders the
// Allure results of a run folder with it.
export default {
  name: 'Payments API conformance',
  output: './reports/allure-report',
  // One append-only JSONL file: keep it between nightly runs and the report shows trends.
  // PAYMENTS_ALLURE_HISTORY points elsewhere (tests render into a history of their own).
  historyPath: process.env.PAYMENTS_ALLURE_HISTORY ?? './reports/history/allure-history.jsonl',
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
