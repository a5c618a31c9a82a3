import type { Web } from '../../http/web';
import type { EmailOtpService } from './email-otp.service';

/** What the email-otp feature's route table gets: the shared `Web` and the feature's own services. */
export interface EmailOtpWeb extends Web {
  codes: EmailOtpService;
}
