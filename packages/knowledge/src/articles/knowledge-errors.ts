import { HttpError } from '@repo/http-kit';
import type { z } from 'zod';

/**
 * The knowledge base's refusals. They are HttpErrors, so a route that lets one through answers with
 * its problem details (status and stable code) through http-kit's error middleware as it is.
 */
export class ArticleTooLarge extends HttpError {
  constructor(slug: string, bytes: number, limit: number) {
    super(
      413,
      'article_too_large',
      `The article's body is ${bytes} bytes; the limit is ${limit}.`,
      {
        extra: {
          slug,
          limit,
        },
      },
    );
    this.name = 'ArticleTooLarge';
  }
}

export class TooManyArticles extends HttpError {
  constructor(slug: string, limit: number) {
    super(
      422,
      'too_many_articles',
      `The knowledge base holds its limit of ${limit} articles; delete one before adding another.`,
      { extra: { slug, limit } },
    );
    this.name = 'TooManyArticles';
  }
}

export class InvalidArticle extends HttpError {
  constructor(detail: string, errors: Array<{ path: string; message: string }>) {
    super(422, 'invalid_article', detail, { extra: { errors } });
    this.name = 'InvalidArticle';
  }

  static of(error: z.ZodError): InvalidArticle {
    const errors = error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(article)',
      message: issue.message,
    }));
    return new InvalidArticle(errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
  }
}
