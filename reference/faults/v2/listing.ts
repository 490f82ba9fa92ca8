// v2 faults of job listing (seed W § Jobs, listing): pages, filters, cursors.
import type { FaultUnit } from '../../faults.ts';
import { ApiError } from '../../errors.ts';

export const LISTING_FAULTS = [
  {
    name: 'cursor-follows-owner',
    rule: 'V2.ERR.LIST_REFUSALS',
    description: "a job-list cursor issued to another account is accepted and continues that account's listing",
    install(s) {
      // A genuine cursor of another account continues that account's listing.
      s.policy.v2.listingOwner = (caller, cursor, cursors) => cursors.issuedScope(cursor)?.split('\n')[1] ?? caller;
    },
  },
  {
    name: 'list-page-one-extra',
    rule: 'V2.JOB.LIST_WALK',
    description: 'job listing pages carry one job more than limit',
    install(s) {
      s.policy.v2.pageSize = (limit) => limit + 1;
    },
  },
  {
    name: 'list-filter-ignored',
    rule: 'V2.JOB.LIST_FILTER',
    description: 'job listing accepts metadata filters but does not apply them',
    install(s) {
      s.policy.v2.matchesFilters = () => true;
    },
  },
  {
    name: 'list-unimplemented-as-403',
    rule: 'V2.ERR.NOT_IMPLEMENTED',
    description: 'the cloud job list answers 403 forbidden instead of 501 not_implemented',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        if (out.error?.code === 'not_implemented') out.fail(new ApiError('forbidden', 'listing is not allowed'));
      });
    },
  },
  {
    name: 'list-filters-unbounded',
    rule: 'V2.JOB.LIST_FILTER_LIMIT',
    description: 'the job list answers more metadata filters than three with an empty page instead of refusing them',
    install(s) {
      s.respond({ routes: ['GET /api/v2/jobs'] }, (out) => {
        if (out.error?.code !== 'invalid_metadata_filter' || !/at most \d+ filters/.test(out.error.message)) return;
        out.status = 200;
        out.body = { jobs: [] };
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
