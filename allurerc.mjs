// Allure Report 3 configuration (pure JS, no Java). `npm run report` renders reports/allure-results.
export default {
  name: 'Payments API conformance',
  output: './reports/allure-report',
  // One append-only JSONL file: keep it between nightly runs and the report shows trends.
  historyPath: './reports/history/allure-history.jsonl',
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
