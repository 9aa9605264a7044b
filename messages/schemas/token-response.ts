/** §2.1 access token response. expires_in "may be rendered as a string of digits". */
export const tokenResponseSchema = {
  $id: 'token-response',
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    token_type: { type: 'string', pattern: '^[Bb][Ee][Aa][Rr][Ee][Rr]$' },
    expires_in: {
      oneOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', pattern: '^[1-9][0-9]*$' },
      ],
    },
    scope: { type: 'string' },
  },
} as const;
